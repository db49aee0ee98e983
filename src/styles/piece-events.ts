// The content chunks of one stream differ only in their piece of text. One chunk is serialized
// with a marker for its piece, and every chunk's JSON is that text around its own piece: a whole
// JSON.stringify per token was most of what a stream cost. A chunk holds only where its piece is
// in the run's pieces until the writer asks for its JSON (a paced stream waits seconds for its
// last chunks, and a thousand open streams held every chunk's text from the start); its data
// object is built only if something reads it. The writer reads a run as one span, and makes each
// chunk as it comes due.
import { isSpan, type PieceSpan, type StreamEvent, type StreamPart } from '../conversation/plan.js';

const MARK = '\u0000piece\u0000';
const MARK_JSON = JSON.stringify(MARK);

/** What the chunks of one run of pieces share: the JSON around the piece, and how to build one whole. */
class PieceTemplate implements PieceSpan {
  constructor(
    readonly event: string | undefined,
    readonly paced: boolean | undefined,
    readonly head: string,
    readonly tail: string,
    readonly pieces: readonly string[],
    readonly build: (piece: string) => StreamEvent,
  ) {}

  chunk(at: number): StreamEvent {
    return new PieceEvent(this, at);
  }
}

class PieceEvent implements StreamEvent {
  constructor(
    readonly run: PieceTemplate,
    readonly at: number,
  ) {}

  get piece(): string {
    return this.run.pieces[this.at]!;
  }

  get event(): string | undefined {
    return this.run.event;
  }

  get paced(): boolean | undefined {
    return this.run.paced;
  }

  get json(): string {
    return this.run.head + JSON.stringify(this.piece) + this.run.tail;
  }

  get data(): unknown {
    return this.run.build(this.piece).data;
  }
}

/**
 * Appends the chunks of `pieces`, as `build` makes them, to `parts` as one span. `build` must put
 * the piece in its data as one string value and nowhere else; a chunk where the marker does not
 * occur exactly once is serialized whole, event by event.
 */
export function pushSpan(parts: StreamPart[], pieces: readonly string[], build: (piece: string) => StreamEvent): void {
  if (pieces.length === 0) return;
  const template = build(MARK);
  const json = JSON.stringify(template.data);
  const at = json.indexOf(MARK_JSON);
  if (at < 0 || json.indexOf(MARK_JSON, at + 1) >= 0) {
    for (const piece of pieces) parts.push(build(piece));
    return;
  }
  parts.push(new PieceTemplate(template.event, template.paced, json.slice(0, at), json.slice(at + MARK_JSON.length), pieces, build));
}

/** The marker a mold's template holds in its hole `n` (`JsonMold`, `SpanMold`). */
export function holeMark(n: number): string {
  return `\u0000hole${n}\u0000`;
}

/**
 * `json` up to `end` cut at the markers of `holes` holes: undefined unless each comes once in
 * the whole text, in order, before `end`.
 */
function cutAtHoles(json: string, holes: number, end: number): string[] | undefined {
  const cuts: string[] = [];
  let from = 0;
  for (let n = 0; n < holes; n++) {
    const hole = JSON.stringify(holeMark(n));
    const found = json.indexOf(hole, from);
    if (found < 0 || found + hole.length > end || json.indexOf(hole, found + 1) >= 0) return undefined;
    cuts.push(json.slice(from, found));
    from = found + hole.length;
  }
  cuts.push(json.slice(from, end));
  return cuts;
}

/** The cuts joined with `values` between them. */
function filled(cuts: readonly string[], values: readonly string[]): string {
  let text = cuts[0]!;
  for (let n = 0; n < values.length; n++) text += values[n]! + cuts[n + 1]!;
  return text;
}

/**
 * The JSON of values that differ from stream to stream only in a few holes (a stream's id and
 * time): made once from a value holding `holeMark(n)` in its hole `n`, where one `JSON.stringify`
 * a stream made it whole. A stream's JSON is its values put back between the cuts.
 */
export class JsonMold {
  private constructor(private readonly cuts: readonly string[]) {}

  /** The mold of `value`, or undefined unless its holes' markers come in order, each once. */
  static of(value: unknown, holes: number): JsonMold | undefined {
    const json = JSON.stringify(value);
    const cuts = cutAtHoles(json, holes, json.length);
    return cuts && new JsonMold(cuts);
  }

  /** The JSON with `values` (each JSON text) in its holes, in order. */
  fill(values: readonly string[]): string {
    return filled(this.cuts, values);
  }
}

/** A span's JSON cut at its piece and at holes before it, as `JsonMold` cuts a whole value. */
export class SpanMold {
  private constructor(
    readonly event: string | undefined,
    readonly paced: boolean | undefined,
    private readonly cuts: readonly string[],
    private readonly tail: string,
  ) {}

  /**
   * The mold of `template` (a chunk built of the piece `PIECE_MARK` and the holes' markers), or
   * undefined unless its holes come in order, each once, before the piece, which comes once.
   */
  static of(template: StreamEvent, holes: number): SpanMold | undefined {
    const json = JSON.stringify(template.data);
    const at = json.indexOf(MARK_JSON);
    if (at < 0 || json.indexOf(MARK_JSON, at + 1) >= 0) return undefined;
    const cuts = cutAtHoles(json, holes, at);
    return cuts && new SpanMold(template.event, template.paced, cuts, json.slice(at + MARK_JSON.length));
  }

  /** Appends the chunks of `pieces`, as `build` makes them, as one span: `values` are the holes' JSON, in order. */
  push(parts: StreamPart[], pieces: readonly string[], build: (piece: string) => StreamEvent, values: readonly string[]): void {
    if (pieces.length === 0) return;
    parts.push(new PieceTemplate(this.event, this.paced, filled(this.cuts, values), this.tail, pieces, build));
  }
}

/** The piece a mold's template is built of (`SpanMold.of`). */
export const PIECE_MARK = MARK;

/** Appends the chunks of `pieces` as one span, its JSON from `mold` with `values` in its holes, or serialized from a template when there is none. */
export function pushMolded(parts: StreamPart[], pieces: readonly string[], build: (piece: string) => StreamEvent, mold: SpanMold | undefined, values: readonly string[]): void {
  if (mold) mold.push(parts, pieces, build, values);
  else pushSpan(parts, pieces, build);
}

/** What a mold is made for besides a stream's holes: a model, a choice's index, an option. */
type MoldKey = readonly (string | number | boolean)[];

/** Past this many molds, a shelf's are made anew: bounded whatever models a client names. */
const MOLDS_KEPT = 64;

/**
 * A style's molds, each made once for what it was made for (`key`): a stream's span or chunk
 * differs from the last stream's of the same key only in its holes. Looked through in order, not
 * by a key string: one made and hashed a stream cost more than the few comparisons.
 */
export class MoldShelf<K extends MoldKey, M> {
  private kept: { key: K; mold: M | undefined }[] = [];

  /** `make` makes the mold of a key, or undefined where its template cannot be cut (then kept as none). */
  constructor(private readonly make: (key: K) => M | undefined) {}

  /** The mold made for `key`: kept, or made now. */
  of(key: K): M | undefined {
    for (const kept of this.kept) if (sameKey(kept.key, key)) return kept.mold;
    if (this.kept.length >= MOLDS_KEPT) this.kept = [];
    const mold = this.make(key);
    this.kept.push({ key, mold });
    return mold;
  }
}

function sameKey(a: MoldKey, b: MoldKey): boolean {
  if (a.length !== b.length) return false;
  for (let at = 0; at < a.length; at++) if (a[at] !== b[at]) return false;
  return true;
}

/** A mold without holes gets no values. */
export const NO_HOLES: readonly string[] = [];

/** Appends a stream's parts to `events`, a span as its chunks. */
function pushEvents(events: StreamEvent[], parts: readonly StreamPart[]): void {
  for (const part of parts) {
    if (!isSpan(part)) events.push(part);
    else for (let at = 0; at < part.pieces.length; at++) events.push(part.chunk(at));
  }
}

/** A stream's events, each chunk of a span made: what a reader of the whole list (not the writer) wants. */
export function expandedParts(parts: readonly StreamPart[]): StreamEvent[] {
  const events: StreamEvent[] = [];
  pushEvents(events, parts);
  return events;
}

/** A style's stream as its events, from the parts the writer reads. */
export function eventsOf<A extends unknown[]>(parts: (...args: A) => StreamPart[]): (...args: A) => StreamEvent[] {
  return (...args) => expandedParts(parts(...args));
}

/** Appends one event per piece to `events`, as `pushSpan` makes them. */
export function pushPieces(events: StreamEvent[], pieces: readonly string[], build: (piece: string) => StreamEvent): void {
  const parts: StreamPart[] = [];
  pushSpan(parts, pieces, build);
  pushEvents(events, parts);
}
