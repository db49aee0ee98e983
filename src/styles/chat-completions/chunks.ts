// A chat-completions stream's chunks: their data with the wire's keys in the wire's order, and
// the JSON of a choice's opening chunk and of its text and reasoning spans from molds made once
// per model (styles/piece-events.ts), a stream's id and time put back in each.
import type { StreamEvent, StreamPart } from '../../conversation/plan.js';
import { holeMark, JsonMold, PIECE_MARK, pushSpan, SpanMold } from '../piece-events.js';

/** What every chunk of one stream says before its choices, in the wire's order. */
export interface ChunkHead {
  id: string;
  created: number | string;
  model: string;
  service_tier: string;
  system_fingerprint: string;
}

/** A chunk's data, written out: a spread of the head cost a slow clone a chunk; the same keys in the same order. */
export function chunkData(head: ChunkHead, choices: unknown[], withUsage: boolean): Record<string, unknown> {
  const { id, created, model, service_tier, system_fingerprint } = head;
  return withUsage
    ? { id, object: 'chat.completion.chunk', created, model, service_tier, system_fingerprint, choices, usage: null }
    : { id, object: 'chat.completion.chunk', created, model, service_tier, system_fingerprint, choices };
}

export type Chunk = (index: number, delta: Record<string, unknown>, finish?: string | null, paced?: boolean) => StreamEvent;

export function chunkMaker(head: ChunkHead, withUsage: boolean): Chunk {
  return (index, delta, finish = null, paced = false) => ({ data: chunkData(head, [{ index, delta, logprobs: null, finish_reason: finish }], withUsage), paced });
}

/** The markers a mold's template holds for a stream's id and time. */
const MOLD_HEAD = { id: holeMark(0), created: holeMark(1) };
/** A mold, and what it was made for but a stream's id and time: a delta's span, or the opening chunk (`role`). */
interface KeptMold {
  readonly delta: string;
  readonly index: number;
  readonly withUsage: boolean;
  readonly tier: string;
  readonly model: string;
  readonly mold: SpanMold | JsonMold | undefined;
}

/** Past this many molds, they are made anew: bounded whatever models a client names. */
const MOLDS_KEPT = 64;
/** Looked through in order, not by a key: a key string made and hashed a stream cost more than the few comparisons. */
let molds: KeptMold[] = [];

/** The chunk that opens a choice, its text empty: every stream's first event. */
function opening(chunk: Chunk, index: number): StreamEvent {
  return chunk(index, { role: 'assistant', content: '', refusal: null });
}

/** The mold of a choice's `delta` span, or of its opening chunk (`role`), for streams with `head`'s model and tier. */
function moldOf(head: ChunkHead, withUsage: boolean, index: number, delta: string): SpanMold | JsonMold | undefined {
  for (const kept of molds) {
    if (kept.delta === delta && kept.index === index && kept.withUsage === withUsage && kept.tier === head.service_tier && kept.model === head.model) return kept.mold;
  }
  if (molds.length >= MOLDS_KEPT) molds = [];
  const chunk = chunkMaker({ ...head, ...MOLD_HEAD }, withUsage);
  const mold = delta === 'role' ? JsonMold.of(opening(chunk, index).data, 2) : SpanMold.of(chunk(index, { [delta]: PIECE_MARK }, null, true), 2);
  molds.push({ delta, index, withUsage, tier: head.service_tier, model: head.model, mold });
  return mold;
}

/** A stream's id and time as JSON, for its molds' holes. */
function holesOf(head: ChunkHead): string[] {
  return [JSON.stringify(head.id), JSON.stringify(head.created)];
}

/**
 * Appends a choice's `delta` span, its chunks' data made by the stream's `chunk` when read, its
 * JSON from the mold of its model, tier, usage, choice and delta: a stream's span differs from the
 * last stream's of the same model only in id and time.
 */
export function pushDeltaSpan(parts: StreamPart[], pieces: readonly string[], chunk: Chunk, head: ChunkHead, withUsage: boolean, index: number, delta: string): void {
  if (pieces.length === 0) return;
  const build = (piece: string): StreamEvent => chunk(index, { [delta]: piece }, null, true);
  const mold = moldOf(head, withUsage, index, delta) as SpanMold | undefined;
  if (mold) mold.push(parts, pieces, build, holesOf(head));
  else pushSpan(parts, pieces, build);
}

/** A choice's opening chunk with its JSON made from its mold, which the writer sends as it is. */
export function openingChunk(chunk: Chunk, head: ChunkHead, withUsage: boolean, index: number): StreamEvent {
  const event = opening(chunk, index);
  const mold = moldOf(head, withUsage, index, 'role') as JsonMold | undefined;
  return mold ? { data: event.data, json: mold.fill(holesOf(head)), paced: event.paced } : event;
}
