// An unpaced stream's content chunks, framed a run at a time. The chunks of one run differ only in
// their piece (styles/piece-events.ts), so their frames are each piece's JSON with one text
// between two of them (the chunk's JSON after the piece, the frame's end, the next frame's start,
// the chunk's JSON before the piece): one flat text for the run, the very bytes of framing each
// chunk alone, without a JSON text, five concatenations and a frame per token. A fixture's reply
// is the same pieces on every request (its token split is remembered, and frozen), so the JSON of
// a frozen array of pieces is made once and kept beside it, for as long as the array is kept.
import type { PieceRun, StreamEvent } from '../conversation/plan.js';
import type { KeptItems } from './frame-bytes.js';
import type { Framer } from './framers.js';

const MARK = '\u0000data\u0000';
/** Chunks framed in one go at most, so a long stream still goes out a slice of the loop at a time. */
const RUN_MAX = 256;

/** A run's pieces as JSON: each one's string literal, and the whole array's; and the literals' UTF-8 bytes, from the first. */
interface PiecesJson {
  readonly items: readonly string[];
  readonly array: string;
  readonly bytes: KeptItems;
}

/** The items' UTF-8 bytes, one after another, and where each ends. */
function itemsBytes(items: readonly string[]): KeptItems {
  const ends = new Uint32Array(items.length);
  let end = 0;
  for (let i = 0; i < items.length; i++) ends[i] = end += Buffer.byteLength(items[i]!);
  // Of its own: a small Buffer.from would hold a slice of Node's shared pool, all 8 KB of it, as long as the split is kept.
  const bytes = Buffer.allocUnsafeSlow(end);
  bytes.write(items.join(''));
  return { bytes, ends, at: 0 };
}

/** Weak: an entry lives as long as its pieces, which the token memo bounds (its bytes count this). */
const keptJson = new WeakMap<readonly string[], PiecesJson>();

/** The JSON of a frozen (kept) array of pieces, made at its first stream. */
function keptJsonOf(pieces: readonly string[]): PiecesJson {
  const known = keptJson.get(pieces);
  if (known !== undefined) return known;
  const items = pieces.map((piece) => JSON.stringify(piece));
  const json = { items, array: `[${items.join(',')}]`, bytes: itemsBytes(items) };
  keptJson.set(pieces, json);
  return json;
}

/** Chunks of one run framed together: the frames are `open`, then `items` joined by `between`, then `close`. */
export interface FramedRun {
  readonly run: PieceRun;
  /** How many chunks: `items.length`. */
  readonly count: number;
  /** The chunks' pieces, which the journal keeps: the run's own (frozen) array when the run is whole. */
  readonly pieces: readonly string[];
  /** The pieces' array as JSON, which the journal keeps them as. */
  readonly piecesJson: string;
  readonly open: string;
  readonly items: readonly string[];
  readonly between: string;
  readonly close: string;
  /** The items' UTF-8 bytes, when they are a kept split's. */
  readonly kept: KeptItems | undefined;
  /** The frames' length in characters. */
  readonly length: number;
}

/** The text a framer puts before and after an event's data in every frame but a stream's first; none for a framing in bytes. */
function around(framer: Framer, name: string | undefined): [string, string] | undefined {
  const frame = framer.frame({ name, data: MARK, json: true }, 1);
  if (typeof frame !== 'string') return undefined;
  const at = frame.indexOf(MARK);
  return at < 0 ? undefined : [frame.slice(0, at), frame.slice(at + MARK.length)];
}

/**
 * The chunks of one run from `events[from]` on, before `to`, framed together; none when that
 * event is no chunk of a run, fewer than two follow, it is the stream's first event (`framed` 0,
 * which a framer may open the stream with) or the framing is in bytes.
 */
export function framedRun(events: readonly StreamEvent[], from: number, to: number, framer: Framer, framed: number): FramedRun | undefined {
  const { run, at } = events[from]!;
  if (run === undefined || at === undefined) return undefined;
  const end = Math.min(to, events.length, from + RUN_MAX);
  let count = 1;
  while (from + count < end && events[from + count]!.run === run) count++;
  return framedPieces(run, at, count, framer, framed);
}

/** The `count` chunks of `run` from its piece `at` on (at most a run's worth), framed together, as `framedRun` says. */
export function framedPieces(run: PieceRun, at: number, most: number, framer: Framer, framed: number): FramedRun | undefined {
  const count = Math.min(most, RUN_MAX);
  if (count < 2 || framed === 0) return undefined;
  const sides = around(framer, run.event);
  if (sides === undefined) return undefined;
  const open = sides[0] + run.head;
  const close = run.tail + sides[1];
  const between = close + open;
  // Only a kept split's JSON is made whole: a text too long to keep is framed a run at a time, and
  // making all its pieces' JSON for each run would cost the stream's length squared.
  const json = Object.isFrozen(run.pieces) ? keptJsonOf(run.pieces) : undefined;
  const whole = json !== undefined && at === 0 && count === run.pieces.length;
  // A kept split whole is not copied (slicing a frozen array takes V8's slow path, element by element).
  const pieces = whole ? run.pieces : run.pieces.slice(at, at + count);
  const items = whole ? json.items : json ? json.items.slice(at, at + count) : pieces.map((piece) => JSON.stringify(piece));
  let length = open.length + close.length + (count - 1) * between.length;
  for (const item of items) length += item.length;
  const kept = json === undefined ? undefined : at === 0 ? json.bytes : { ...json.bytes, at };
  return { run, count, pieces, piecesJson: whole ? json.array : JSON.stringify(pieces), open, items, between, close, kept, length };
}

/**
 * A paced stream's chunks of one span, framed one at a time past the stream's first event: each
 * frame is `open`, its piece's JSON and `close`, the very text the framer makes of the chunk, with
 * no chunk object, no JSON of the piece for a kept split (made once, above) and no frame built a
 * token. None for a framing in bytes.
 */
export interface PieceFraming {
  readonly span: PieceRun;
  readonly open: string;
  readonly close: string;
  /** The pieces' JSON, when they are a kept split's. */
  readonly items: readonly string[] | undefined;
}

export function pieceFraming(span: PieceRun, framer: Framer): PieceFraming | undefined {
  const sides = around(framer, span.event);
  if (sides === undefined) return undefined;
  const items = Object.isFrozen(span.pieces) ? keptJsonOf(span.pieces).items : undefined;
  return { span, open: sides[0] + span.head, close: span.tail + sides[1], items };
}

/** The frame of the span's chunk at `at`. */
export function framedPiece({ span, open, close, items }: PieceFraming, at: number): string {
  return open + (items === undefined ? JSON.stringify(span.pieces[at]) : items[at]!) + close;
}
