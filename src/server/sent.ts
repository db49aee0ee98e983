// What the writer actually sent, kept for the journal as the JSON text of its `response` (a
// SentResponse): from the texts the writer made anyway (a whole answer's JSON, each event's
// data; a chunk serialized around its piece as its piece), bounded so one entry stays under 1 MB.
import { JOURNAL_ANSWER_MAX as SENT_MAX, type PieceRun, type StreamEvent } from '../conversation/plan.js';
import { keptPiecesJson, runsJson } from '../state/piece-runs.js';
import { lengthOf } from '../conversation/text-pieces.js';
import type { FramedRun } from './piece-frames.js';

function head(status: number, headers: Record<string, unknown>): string {
  return `{"status":${status},"headers":${JSON.stringify(headers)}`;
}

/**
 * A whole answer: `text` is what went on the wire, so its size is known without work, and
 * `bodyJson` the JSON of what the journal shows of it (the answer's object, or the text itself
 * when it is not JSON).
 */
export function sentWhole(status: number, headers: Record<string, unknown>, bodyJson: string | readonly string[], text: string | readonly string[], type: string): string {
  const size = lengthOf(text);
  if (size <= SENT_MAX) return `${head(status, headers)},"body":${typeof bodyJson === 'string' ? bodyJson : bodyJson.join('')}}`;
  return `${head(status, headers)},"body":${JSON.stringify({ type, size })},"truncated":true}`;
}

export function sentBinary(status: number, headers: Record<string, unknown>, type: string, size: number, about?: Record<string, unknown>): string {
  return `${head(status, headers)},"body":${JSON.stringify({ type, size, ...about })}}`;
}

/** A stream sent without HTTP headers (over a socket). */
const noHeaders = (): Record<string, unknown> => ({});

/** Consecutive chunks of one run, kept as their pieces. */
interface PieceGroup {
  run: number;
  /** A kept split's own frozen array until the group grows or is cut: then a copy of its own. */
  pieces: readonly string[];
  /** The pieces' JSON, while they are those of one run framed at once (its framing made it). */
  json?: string | undefined;
}

/**
 * A stream's events as they are framed; only those flushed to the socket count as sent, so a
 * client that leaves mid-stream is journaled with what it actually got. Consecutive chunks
 * serialized around their piece are kept as their pieces, their run once (state/piece-runs.ts);
 * every other event as the texts the writer framed. The journal JSON is put together once, at the end.
 */
export class SentStream {
  /** An event whole (its name and the JSON of its data), or a group of pieces. */
  private readonly kept: ({ event: string | null; data: string } | PieceGroup)[] = [];
  private readonly runs: PieceRun[] = [];
  /** The group the last event went into, while the next chunk of its run may join it. */
  private group: PieceGroup | undefined;
  private chars = 0;
  /** What had gone on the socket: how many events were kept, and how many pieces their last group had then. */
  private flushedEvents = 0;
  private flushedGroup: PieceGroup | undefined;
  private flushedPieces = 0;
  private truncated = false;

  /**
   * `headersOf`: the response's headers, read when the journal's JSON is made at the stream's end
   * (they cannot change once sent): a copy taken at its start was work before the next request's
   * headers in a burst, and an object each waiting stream held for its whole length.
   */
  constructor(
    private readonly status: number,
    private readonly headersOf: () => Record<string, unknown> = noHeaders,
  ) {}

  /** `data`: the event's data as framed; `json`: whether that is JSON text (else a string as it is). */
  framed(event: StreamEvent, data: string, json: boolean, frameLength: number): void {
    const { run, piece } = event;
    if (run !== undefined && piece !== undefined) return this.framedPiece(run, piece, frameLength);
    if (!this.fits(frameLength)) return;
    this.group = undefined;
    this.kept.push({ event: event.event ?? null, data: json ? data : JSON.stringify(data) });
  }

  /** A chunk of `run` framed alone around its piece (piece-frames.ts `framedPiece`). */
  framedPiece(run: PieceRun, piece: string, frameLength: number): void {
    if (this.fits(frameLength)) this.keep(run, piece);
  }

  /** Counts a frame sent alone; false, marking the journal's copy cut, once the sent text passes its bound. */
  private fits(frameLength: number): boolean {
    this.chars += frameLength;
    if (this.chars > SENT_MAX) this.truncated = true;
    return !this.truncated;
  }

  /** Chunks of one run framed together (piece-frames.ts); false, keeping none, when they would pass the journal's bound: frame them one by one then. */
  framedRun({ run, pieces, piecesJson, length }: FramedRun): boolean {
    if (this.chars + length > SENT_MAX) return false;
    this.chars += length;
    this.keep(run, pieces, piecesJson);
    return true;
  }

  /** `pieces`: one piece, or several framed together. */
  private keep(run: PieceRun, pieces: readonly string[] | string, json?: string): void {
    const group = this.group;
    if (group !== undefined && this.runs[group.run] === run) {
      // A kept split's array is frozen: it is copied, once, before it grows.
      const own = Object.isFrozen(group.pieces) ? [...group.pieces] : (group.pieces as string[]);
      if (typeof pieces === 'string') own.push(pieces);
      else for (const piece of pieces) own.push(piece);
      group.pieces = own;
      group.json = undefined;
      return;
    }
    let index = this.runs.indexOf(run);
    if (index < 0) index = this.runs.push(run) - 1;
    this.kept.push((this.group = { run: index, pieces: typeof pieces === 'string' ? [pieces] : pieces, json }));
  }

  /** Everything framed so far went on the socket. */
  commit(): void {
    this.flushedEvents = this.kept.length;
    this.flushedGroup = this.group;
    this.flushedPieces = this.group?.pieces.length ?? 0;
  }

  /** Drops events framed after the last flush: they never reached the socket. */
  settle(): void {
    this.kept.length = this.flushedEvents;
    const group = this.flushedGroup;
    if (group !== undefined && group.pieces.length !== this.flushedPieces) {
      group.pieces = group.pieces.slice(0, this.flushedPieces);
      group.json = undefined;
    }
  }

  /**
   * The events joined by `+`, not an array's `join`: the journal flattens the whole text once as it
   * encodes it, where a join was one more copy of the events a stream; and TurboFan's inlined `map`
   * made an array of another map than the one its `join` was compiled for, which threw the
   * optimized getter away at its first call.
   */
  get json(): string {
    let events = '';
    for (let i = 0; i < this.kept.length; i++) {
      const kept = this.kept[i]!;
      const text = 'pieces' in kept ? keptPiecesJson(kept.run, kept.json ?? JSON.stringify(kept.pieces)) : `{"event":${kept.event === null ? 'null' : JSON.stringify(kept.event)},"data":${kept.data}}`;
      events = i === 0 ? text : `${events},${text}`;
    }
    const runs = this.runs.length > 0 ? `,"runs":${runsJson(this.runs)}` : '';
    return `${head(this.status, this.headersOf())},"events":[${events}]${runs}${this.truncated ? ',"truncated":true' : ''}}`;
  }
}
