// A stream's events onto its response: paced against the stream's clock, framed as its door
// says, with its fault struck where it falls, and what went out kept for the journal.
import type { ServerResponse } from 'node:http';
import { MockError } from '../conversation/errors.js';
import { ChunkDeadlines } from '../conversation/latency.js';
import { isSpan, type Fault, type PieceSpan, type Plan, type StreamEvent, type StreamPart } from '../conversation/plan.js';
import { Slice } from '../state/event-loop.js';
import type { BodySink } from './chunk-sink.js';
import { chunkCount, strikeAt } from './fault-strike.js';
import { Framed, type Framer } from './framers.js';
import type { StreamProgress } from './in-flight.js';
import type { Pacer } from './pacer.js';
import { framedPiece, framedPieces, framedRun, pieceFraming, type PieceFraming } from './piece-frames.js';
import { whenDrained } from './response-waits.js';
import { endWith } from './whole-body.js';
import type { SentStream } from './sent.js';

export function isPaced({ firstChunkMs, chunkMs }: Extract<Plan, { kind: 'stream' }>['pacing']): boolean {
  return firstChunkMs > 0 || chunkMs > 0;
}

/** Writes what is left, then drops the connection without ending the response. */
async function cut(res: ServerResponse, data: string | Uint8Array): Promise<void> {
  // Destroying right after write() could discard bytes still queued on the socket.
  if (data.length > 0 && !res.destroyed) await new Promise<void>((resolve) => res.write(data, () => resolve()));
  res.destroy();
}

/** How a stream ended: written to its end (or its fault), abandoned by its client, or broken by an error of the mock's after its headers (its connection is then dropped). */
export type StreamEnd = 'written' | 'client gone' | 'broken';

export type Writing = { pacer: Pacer; sent: SentStream; progress: StreamProgress | undefined; framer: Framer; sink: BodySink };

type StreamPlan = Extract<Plan, { kind: 'stream' }>;

/**
 * What a slice of a stream's work frames at least before its time counts: a 1 KB reply sent a
 * token at a time is 60 KB of frames; 256 KB (sixteen of speech's events) is well under a
 * millisecond of framing.
 */
const SLICE_CHARS = 256 * 1024;

/**
 * How long before its first paced event a late reply's opening events (those before its first
 * pause) go out. Not at once: the pacing clock makes a wave of requests' replies in one tick, 50
 * ms ahead (late-reply.ts), and their sends made that tick the loop's longest turn. Not with the
 * first paced event either: a wave's first tokens are all due together, and a send added there
 * made the first token later (docs/performance.md, round twenty, stream60).
 */
const OPENING_AHEAD_MS = 25;

/**
 * One stream's events, written a step at a time. The pacing clock's wake (`Pacer.after`) and a
 * full socket's drain call the next step directly, and the stream's end calls `ended`: a paced
 * event costs no promise and no turn of the microtask queue, and a waiting stream holds this one
 * object, not a suspended function's closures and promises (nor the request's middleware, which
 * has returned).
 */
class EventPump {
  private readonly paced: boolean;
  private readonly strike: number;
  private readonly total: number | undefined;
  private readonly pending = new Framed();
  private slice = new Slice();
  /** What this slice has framed, in characters (or bytes, of a framing in bytes). */
  private sliceChars = 0;
  private chunks = 0;
  private written = 0;
  /** Whether chunks may still be framed a run at a time: an unpaced stream's, until the journal is full. */
  private runs: boolean;
  /** The stream's events, a run of chunks as one span whose chunks are made as they come due. */
  private readonly parts: readonly StreamPart[];
  /** The part the next event is in, and where in it when it is a span. */
  private at = 0;
  private inSpan = 0;
  /** The deadline the stream waits for, once what is framed is written. */
  private dueMs = 0;
  /** Whether the next event's deadline has been waited for. */
  private waited = false;
  /** The span whose chunks `framing` frames (none for a framing in bytes), made at its first chunk past the stream's first event. */
  private framedSpan: PieceSpan | undefined;
  private framing: PieceFraming | undefined;
  private readonly deadlines: ChunkDeadlines;
  /** Whether the events before the first pause go out on a wake of their own (`OPENING_AHEAD_MS`); cleared once they are on their way. */
  private openingApart: boolean;
  constructor(
    private readonly res: ServerResponse,
    private readonly plan: StreamPlan,
    private readonly fault: Fault | undefined,
    private readonly w: Writing,
    private readonly ended: (end: StreamEnd) => void,
    late: ChunkDeadlines | undefined,
  ) {
    this.deadlines = late ?? new ChunkDeadlines(plan.pacing);
    this.openingApart = late !== undefined;
    this.paced = isPaced(plan.pacing);
    this.runs = !this.paced;
    this.parts = plan.parts ?? plan.events;
    this.strike = strikeAt(this.parts, fault);
    this.total = w.progress && chunkCount(this.parts);
  }

  /**
   * Writes the events, then closes the stream and calls `ended`. At once when nothing had to
   * wait: an unpaced stream ends in the turn it began, its text not held past it.
   */
  start(): void {
    this.step(true);
  }

  /** The events are framed up to the stream's end (or its fault), or the client left first. */
  private finish(through: boolean): void {
    if (!through) return this.ended('client gone');
    this.end().then(this.ended, () => this.ended('broken'));
  }

  private step(open: boolean): void {
    try {
      if (open) this.pump();
      else this.finish(false);
    } catch {
      // What the frame did with an error after the headers: the connection is dropped.
      this.ended('broken');
    }
  }

  private readonly afterWait = (open: boolean): void => {
    this.waited = true;
    this.step(open);
  };

  private readonly sleep = (open: boolean): void => {
    if (open) this.w.pacer.after(this.dueMs, this.afterWait);
    else this.finish(false);
  };

  private pump(): void {
    const { parts, w, paced } = this;
    while (this.at < parts.length && this.written < this.strike) {
      const part = parts[this.at]!;
      const span = isSpan(part) ? part : undefined;
      if (part.paced && paced) {
        if (this.waited) {
          this.waited = false;
          this.slice = new Slice();
          this.sliceChars = 0;
        } else {
          // An event already due (a stream running late) joins the events before it: they go
          // out together, in one write, when the stream next waits.
          this.dueMs = this.deadlines.next();
          if (!w.pacer.isPast(this.dueMs)) return this.openingApart && !this.pending.empty ? this.sendOpening() : this.flushThen(this.sleep);
        }
        if (w.pacer.interrupted) break;
        this.chunks++;
        w.progress?.(this.chunks, this.total!);
      }
      // An unpaced run of chunks is framed at once (piece-frames.ts).
      const run = this.runs ? this.runFrom(part) : undefined;
      if (run !== undefined && w.sent.framedRun(run)) {
        this.pending.addJoined(run.open, run.items, run.between, run.close, run.kept);
        this.sliceChars += run.length;
        this.written += run.count;
        this.advance(span, run.count);
      } else {
        // Past the journal's bound no run is kept: the rest go one by one, without framing runs to drop.
        if (run !== undefined) this.runs = false;
        if (span === undefined) this.add(part as StreamEvent);
        else this.addChunk(span);
        this.advance(span, 1);
      }
      // A long unpaced stream (speech as base64 events: 15 MB), or a paced one far behind, goes out
      // a few milliseconds of work at a time, so no other client waits for the whole of it.
      if (this.sliceOver()) return this.flushThen((open) => (open ? void this.slice.next().then(() => this.nextSlice()) : this.finish(false)));
    }
    this.finish(true);
  }

  /**
   * Whether this slice has held the loop long enough, once it has framed some work: a slice over
   * with less was held by a collection or by the system giving the core to another process, not
   * by its own work, which giving the loop back does not undo. A short stream then still goes out
   * in one write, as every other one does, not by a path of writes and waits the hot code meets
   * only under such a pause.
   */
  private sliceOver(): boolean {
    return this.sliceChars >= SLICE_CHARS && this.slice.over;
  }

  private nextSlice(): void {
    this.sliceChars = 0;
    this.step(true);
  }

  /** The chunks of one run from the next event on, up to the fault, framed together (piece-frames.ts). */
  private runFrom(part: StreamPart) {
    const { framer } = this.w;
    const most = this.strike - this.written;
    if (isSpan(part)) return framedPieces(part, this.inSpan, Math.min(most, part.pieces.length - this.inSpan), framer, this.written);
    // Chunks of a run listed one by one (a style that passes another's on): each is one part.
    return framedRun(this.parts as readonly StreamEvent[], this.at, this.at + most, framer, this.written);
  }

  /** Past `count` events: within a span, or of parts that are an event each. */
  private advance(span: PieceSpan | undefined, count: number): void {
    if (span === undefined) this.at += count;
    else if ((this.inSpan += count) === span.pieces.length) {
      this.inSpan = 0;
      this.at++;
    }
  }

  /** The span's next chunk: framed around its piece past the stream's first event, else as any event. */
  private addChunk(span: PieceSpan): void {
    if (this.written === 0) return this.add(span.chunk(this.inSpan));
    if (this.framedSpan !== span) {
      this.framedSpan = span;
      this.framing = pieceFraming(span, this.w.framer);
    }
    if (this.framing === undefined) return this.add(span.chunk(this.inSpan));
    const framed = framedPiece(this.framing, this.inSpan);
    this.written++;
    this.pending.add(framed);
    this.sliceChars += framed.length;
    this.w.sent.framedPiece(span, span.pieces[this.inSpan]!, framed.length);
  }

  private add(event: StreamEvent): void {
    // Read once: a chunk serializes its piece when asked (styles/piece-events.ts).
    const serialized = event.json;
    const json = serialized !== undefined || typeof event.data !== 'string';
    const data = serialized ?? (json ? JSON.stringify(event.data) : (event.data as string));
    const framed = this.w.framer.frame({ name: event.event, data, json }, this.written);
    this.written++;
    this.pending.add(framed);
    this.sliceChars += framed.length;
    this.w.sent.framed(event, data, json, framed.length);
  }

  /** The events before the first pause, once: written on their own wake, then the stream sleeps to its first paced event. */
  private sendOpening(): void {
    this.openingApart = false;
    this.w.pacer.after(this.dueMs - OPENING_AHEAD_MS, this.flushOpening);
  }

  private readonly flushOpening = (open: boolean): void => (open ? this.flushThen(this.sleep) : this.finish(false));

  /** Writes what is framed, then `then(open)`: at once, unless the socket is full. */
  private flushThen(then: (open: boolean) => void): void {
    const { res, w } = this;
    if (res.destroyed) return then(false);
    if (!this.pending.empty) {
      const flowing = w.sink.write(this.pending.take());
      w.sent.commit();
      if (!flowing) return whenDrained(res, w.sink.drains, (open) => then(open && !res.destroyed));
    }
    then(!res.destroyed);
  }

  /** After the events: the shutdown's or the fault's ending, then what closes the stream. */
  private async end(): Promise<StreamEnd> {
    const { res, plan, fault, w } = this;
    if (w.pacer.interrupted) {
      for (const event of plan.streamError(new MockError('overloaded', 'The mock is shutting down; retry once it is back.'), this.written)) this.add(event);
    } else if (this.written >= this.strike && fault) {
      if (fault.kind === 'cut_stream') {
        if (!res.destroyed) w.sent.commit();
        await cut(res, this.pending.take());
        return 'written';
      }
      if (fault.kind === 'malformed') {
        this.add({ data: '{"malformed":' });
        if (await new Promise<boolean>((flushed) => this.flushThen(flushed))) res.end();
        return 'written';
      }
      if (fault.kind === 'stream_error') for (const event of plan.streamError(fault.error, this.written)) this.add(event);
    }
    this.pending.add(w.framer.close(this.written));
    if (res.destroyed) return 'client gone';
    // The rest and the end in one write: no wait for a drain, no second system call.
    endWith(res, this.pending);
    w.sent.commit();
    return 'written';
  }
}

/**
 * Writes a stream's events after its headers and calls `ended` once, when it is over: the rest of
 * the stream runs on the pacing clock and the response's own events, not in the request's
 * middleware. `late`: the deadlines a reply made after its headers drew its first from
 * (late-reply.ts): its events are paced by them, and those before the first pause go out on a wake
 * of their own, `OPENING_AHEAD_MS` before the first paced event, not at once.
 */
export function writeEvents(res: ServerResponse, plan: StreamPlan, fault: Fault | undefined, writing: Writing, ended: (end: StreamEnd) => void, late?: ChunkDeadlines): void {
  try {
    new EventPump(res, plan, fault, writing, ended, late).start();
  } catch {
    ended('broken');
  }
}
