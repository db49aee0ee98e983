// A stream's events onto its response: paced against the stream's clock, framed as its door
// says, with its fault struck where it falls, and what went out kept for the journal.
import type { ServerResponse } from 'node:http';
import { MockError } from '../conversation/errors.js';
import { chunkDeadlines } from '../conversation/latency.js';
import type { Fault, Plan, StreamEvent } from '../conversation/plan.js';
import { nextTurn, Slice } from '../state/event-loop.js';
import type { BodySink } from './chunk-sink.js';
import { strikeAt } from './fault-strike.js';
import { Framed, type Framer } from './framers.js';
import type { StreamProgress } from './in-flight.js';
import type { Pacer } from './pacer.js';
import { framedRun } from './piece-frames.js';
import { unlessClosed, whenDrained } from './response-waits.js';
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

/** How a stream ended: written to its end (or its fault), or abandoned by its client. */
export type StreamEnd = 'written' | 'client gone';

export type Writing = { pacer: Pacer; sent: SentStream; progress: StreamProgress | undefined; framer: Framer; sink: BodySink };

export async function writeEvents(res: ServerResponse, plan: Extract<Plan, { kind: 'stream' }>, fault: Fault | undefined, { pacer, sent, progress, framer, sink }: Writing): Promise<StreamEnd> {
  const paced = isPaced(plan.pacing);
  // Its events are made a turn after its headers: a burst of streams gets all its headers out first.
  if (paced && !(await unlessClosed(res, nextTurn()))) return 'client gone';
  const strike = strikeAt(plan.events, fault);
  const deadline = chunkDeadlines(plan.pacing);
  const total = progress && plan.events.filter((event) => event.paced).length;
  const pending = new Framed();
  let slice = new Slice();
  let chunks = 0;
  let written = 0;
  /** Whether chunks may still be framed a run at a time: an unpaced stream's, until the journal is full. */
  let runs = !paced;
  const add = (event: StreamEvent) => {
    // Read once: a chunk serializes its piece when asked (styles/piece-events.ts).
    const serialized = event.json;
    const json = serialized !== undefined || typeof event.data !== 'string';
    const data = serialized ?? (json ? JSON.stringify(event.data) : (event.data as string));
    const framed = framer.frame({ name: event.event, data, json }, written);
    written++;
    pending.add(framed);
    sent.framed(event, data, json, framed.length);
  };
  /** Writes what is framed, then `then(open)`: at once, unless the socket is full. */
  const flushThen = (then: (open: boolean) => void): void => {
    if (res.destroyed) return then(false);
    if (!pending.empty) {
      const flowing = sink.write(pending.take());
      sent.commit();
      if (!flowing) return whenDrained(res, sink.drains, (open) => then(open && !res.destroyed));
    }
    then(!res.destroyed);
  };
  const flush = () => new Promise<boolean>(flushThen);
  const events = plan.events;
  // The events up to the stream's end (or its fault), driven by callbacks: a paced event waits on
  // the pacing clock itself, with no promise and no turn of the microtask queue an event.
  const through = await new Promise<boolean>((done, fail) => {
    let i = 0;
    /** Whether event `i`'s deadline has been waited for. */
    let waited = false;
    const step = (open: boolean): void => {
      try {
        if (open) pump();
        else done(false);
      } catch (error) {
        fail(error);
      }
    };
    const afterWait = (open: boolean): void => {
      waited = true;
      step(open);
    };
    const pump = (): void => {
      while (i < events.length && written < strike) {
        const event = events[i]!;
        if (event.paced && paced) {
          if (waited) {
            waited = false;
            slice = new Slice();
          } else {
            // An event already due (a stream running late) joins the events before it: they go
            // out together, in one write, when the stream next waits.
            const at = deadline();
            if (!pacer.isPast(at)) return flushThen((open) => (open ? pacer.after(at, afterWait) : done(false)));
          }
          if (pacer.interrupted) break;
          chunks++;
          progress?.(chunks, total!);
        }
        // An unpaced run of chunks is framed at once (piece-frames.ts); `written` is `i` until the loop ends.
        const run = runs ? framedRun(events, i, strike, framer, written) : undefined;
        if (run !== undefined && sent.framedRun(run)) {
          pending.addJoined(run.open, run.items, run.between, run.close);
          written += run.count;
          i += run.count;
        } else {
          // Past the journal's bound no run is kept: the rest go one by one, without framing runs to drop.
          if (run !== undefined) runs = false;
          add(event);
          i++;
        }
        // A long unpaced stream (speech as base64 events: 15 MB), or a paced one far behind, goes out
        // a few milliseconds of work at a time, so no other client waits for the whole of it.
        if (slice.over) return flushThen((open) => (open ? void slice.next().then(() => step(true), fail) : done(false)));
      }
      done(true);
    };
    step(true);
  });
  if (!through) return 'client gone';
  if (pacer.interrupted) {
    for (const event of plan.streamError(new MockError('overloaded', 'The mock is shutting down; retry once it is back.'), written)) add(event);
  } else if (written >= strike && fault) {
    if (fault.kind === 'cut_stream') {
      if (!res.destroyed) sent.commit();
      await cut(res, pending.take());
      return 'written';
    }
    if (fault.kind === 'malformed') {
      add({ data: '{"malformed":' });
      if (await flush()) res.end();
      return 'written';
    }
    if (fault.kind === 'stream_error') for (const event of plan.streamError(fault.error, written)) add(event);
  }
  pending.add(framer.close(written));
  if (res.destroyed) return 'client gone';
  // The rest and the end in one write: no wait for a drain, no second system call.
  res.end(pending.take());
  sent.commit();
  return 'written';
}
