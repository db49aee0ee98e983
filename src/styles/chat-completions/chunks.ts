// A chat-completions stream's chunks: their data with the wire's keys in the wire's order, and
// the JSON of a choice's opening chunk and of its text and reasoning spans from molds made once
// per model (styles/piece-events.ts), a stream's id and time put back in each.
import type { StreamEvent, StreamPart } from '../../conversation/plan.js';
import { holeMark, JsonMold, MoldShelf, PIECE_MARK, pushMolded, SpanMold } from '../piece-events.js';

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

/** What a mold is made for but a stream's id and time: the rest of the head, the usage option, the choice (and a span's delta key). */
type OpeningKey = readonly [model: string, tier: string, fingerprint: string, withUsage: boolean, index: number];
type SpanKey = readonly [...OpeningKey, delta: string];

/** A chunk maker for a mold's template: the head of the key, its id and time markers. */
function templateChunk(model: string, service_tier: string, system_fingerprint: string, withUsage: boolean): Chunk {
  return chunkMaker({ ...MOLD_HEAD, model, service_tier, system_fingerprint }, withUsage);
}

/** The chunk that opens a choice, its text empty: every stream's first event. */
function opening(chunk: Chunk, index: number): StreamEvent {
  return chunk(index, { role: 'assistant', content: '', refusal: null });
}

const spanMolds = new MoldShelf<SpanKey, SpanMold>(([model, tier, fingerprint, withUsage, index, delta]) =>
  SpanMold.of(templateChunk(model, tier, fingerprint, withUsage)(index, { [delta]: PIECE_MARK }, null, true), 2),
);
const openingMolds = new MoldShelf<OpeningKey, JsonMold>(([model, tier, fingerprint, withUsage, index]) =>
  JsonMold.of(opening(templateChunk(model, tier, fingerprint, withUsage), index).data, 2),
);

/** A stream's id and time as JSON, for its molds' holes: made once a stream. */
export function moldHoles(head: ChunkHead): string[] {
  return [JSON.stringify(head.id), JSON.stringify(head.created)];
}

/**
 * Appends a choice's `delta` span, its chunks' data made by the stream's `chunk` when read, its
 * JSON from the mold of its model, tier, usage, choice and delta, `holes` (`moldHoles`) put back:
 * a stream's span differs from the last stream's of the same model only in id and time.
 */
export function pushDeltaSpan(parts: StreamPart[], pieces: readonly string[], chunk: Chunk, head: ChunkHead, withUsage: boolean, holes: readonly string[], index: number, delta: string): void {
  if (pieces.length === 0) return;
  const build = (piece: string): StreamEvent => chunk(index, { [delta]: piece }, null, true);
  pushMolded(parts, pieces, build, spanMolds.of([head.model, head.service_tier, head.system_fingerprint, withUsage, index, delta]), holes);
}

/**
 * A choice's opening chunk whose JSON came from its mold: the writer sends that as it is, so its
 * data is made only if something reads it (a door looking for a finish, a reader of the whole list).
 */
class MoldedOpening implements StreamEvent {
  readonly paced = false;

  constructor(
    // Not named `chunk`: a part with a `chunk` method is a span (isSpan).
    private readonly maker: Chunk,
    private readonly index: number,
    readonly json: string,
  ) {}

  get data(): unknown {
    return opening(this.maker, this.index).data;
  }
}

/** A choice's opening chunk with its JSON made from its mold. */
export function openingChunk(chunk: Chunk, head: ChunkHead, withUsage: boolean, holes: readonly string[], index: number): StreamEvent {
  const mold = openingMolds.of([head.model, head.service_tier, head.system_fingerprint, withUsage, index]);
  return mold ? new MoldedOpening(chunk, index, mold.fill(holes)) : opening(chunk, index);
}
