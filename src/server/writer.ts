// The single writer: the only code that puts bytes on a response. It performs a plan (JSON,
// binary or a paced stream, framed as its door says: framers.ts) with an optional fault, and
// when the client goes away it stops at once, leaving no timer and no listener behind.
import type { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import { MockError, type Envelope } from '../conversation/errors.js';
import { chunkDeadlines } from '../conversation/latency.js';
import { JOURNAL_ANSWER_MAX, type Fault, type Framing, type Plan, type StreamEvent } from '../conversation/plan.js';
import type { StreamProgress } from './in-flight.js';
import { nextTurn, Slice } from '../state/event-loop.js';
import { type BodySink, flushedSink } from './chunk-sink.js';
import { strikeAt } from './fault-strike.js';
import { FRAMERS, Framed, type Framer } from './framers.js';
import { framedRun } from './piece-frames.js';
import { Pacer } from './pacer.js';
import { SentStream, sentBinary, sentWhole } from './sent.js';
import { setTextBody } from './text-body.js';
import type { MockState } from './state.js';

/** The journal's status for a request whose client left before the answer (nginx's convention). */
const CLIENT_GONE = 499;
/** The journal's status for a request the mock answered by dropping the socket (as browsers show it). */
const NO_RESPONSE = 0;

/** Resolves true when `settled` does, or early (false) when the response closes first; `cancel` then. */
function unlessClosed(res: ServerResponse, settled: Promise<unknown>, cancel?: () => void): Promise<boolean> {
  if (res.destroyed || res.writableEnded) {
    cancel?.();
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const onClose = () => {
      cancel?.();
      resolve(false);
    };
    res.once('close', onClose);
    void settled.then(() => {
      res.off('close', onClose);
      resolve(true);
    });
  });
}

/** Resolves after `ms`, or early (false) when the response closes. */
function pause(res: ServerResponse, ms: number): Promise<boolean> {
  if (ms <= 0 && !res.destroyed && !res.writableEnded) return Promise.resolve(true);
  let timer: NodeJS.Timeout | undefined;
  return unlessClosed(res, new Promise((done) => (timer = setTimeout(done, ms))), () => clearTimeout(timer));
}

/** The request is over: nothing more is written, and it is journaled as 499. */
function clientLeft(ctx: Context): false {
  ctx.respond = false;
  ctx.res.statusCode = CLIENT_GONE;
  return false;
}

/**
 * Waits `ms` before the answer (scenario delays and timeouts). False when the client left first:
 * the request is then over, nothing more is written and it is journaled as 499.
 */
export async function waitForClient(ctx: Context, ms: number): Promise<boolean> {
  return (await pause(ctx.res, ms)) || clientLeft(ctx);
}

/** Waits for the request's turn of the loop (state/event-loop.ts); false, as `waitForClient`, when the client left first. */
export async function waitForTurn(ctx: Context, turn: Promise<void>): Promise<boolean> {
  return (await unlessClosed(ctx.res, turn)) || clientLeft(ctx);
}

/** Resolves when `drains` (the response or its socket) takes more, or at once when the response closes (a destroyed one never drains). */
function drain(res: ServerResponse, drains: EventEmitter = res): Promise<boolean> {
  let onDrain = () => {};
  return unlessClosed(res, new Promise<void>((drained) => drains.once('drain', (onDrain = drained))), () => drains.off('drain', onDrain));
}

/** HTTP/2 has no `connection` header (Node drops it with a warning): its streams share one connection anyway. */
function streamHeaders(framer: Framer, headers: Record<string, string>, httpVersionMajor: number): Record<string, string> {
  const own = { ...headers, 'content-type': framer.contentType, 'cache-control': 'no-cache' };
  return httpVersionMajor === 2 ? own : { ...own, connection: 'keep-alive' };
}

function isPaced({ firstChunkMs, chunkMs }: Extract<Plan, { kind: 'stream' }>['pacing']): boolean {
  return firstChunkMs > 0 || chunkMs > 0;
}

/** Writes what is left, then drops the connection without ending the response. */
async function cut(res: ServerResponse, data: string | Uint8Array): Promise<void> {
  // Destroying right after write() could discard bytes still queued on the socket.
  if (data.length > 0 && !res.destroyed) await new Promise<void>((resolve) => res.write(data, () => resolve()));
  res.destroy();
}

async function writeStream(ctx: Context, plan: Extract<Plan, { kind: 'stream' }>, fault: Fault | undefined, framer: Framer): Promise<void> {
  const res = ctx.res;
  ctx.respond = false;
  const headers = { ...(ctx.response.headers as Record<string, string>), ...streamHeaders(framer, plan.headers, ctx.req.httpVersionMajor) };
  res.writeHead(plan.status, headers);
  // A paced stream shows its headers before its first pause; an unpaced one sends them with its events, in one write.
  const sink: BodySink = isPaced(plan.pacing) ? flushedSink(res) : { write: (data) => res.write(data), drains: res };
  const sent = new SentStream(plan.status, headers);
  const pacer = new Pacer(res, fault?.kind === 'delay' ? undefined : (ctx.state as MockState).readMs);
  const release = (ctx.state as MockState).streams.open(pacer.interrupt);
  try {
    // The journal keeps 499 for a stream its client abandoned (the headers said 200).
    const writing = { pacer, sent, progress: (ctx.state as MockState).inFlight?.progress, framer, sink };
    if ((await writeEvents(res, plan, fault, writing)) === 'client gone') res.statusCode = CLIENT_GONE;
  } finally {
    pacer.stop();
    sent.settle();
    (ctx.state as MockState).sent = sent.json;
    release();
  }
}

/** How a stream ended: written to its end (or its fault), or abandoned by its client. */
type StreamEnd = 'written' | 'client gone';

type Writing = { pacer: Pacer; sent: SentStream; progress: StreamProgress | undefined; framer: Framer; sink: BodySink };

async function writeEvents(res: ServerResponse, plan: Extract<Plan, { kind: 'stream' }>, fault: Fault | undefined, { pacer, sent, progress, framer, sink }: Writing): Promise<StreamEnd> {
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
  const flush = async (): Promise<boolean> => {
    if (res.destroyed) return false;
    if (!pending.empty) {
      const flowing = sink.write(pending.take());
      sent.commit();
      if (!flowing) await drain(res, sink.drains);
    }
    return !res.destroyed;
  };
  const events = plan.events;
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    if (written >= strike) break;
    if (event.paced && paced) {
      // An event already due (a stream running late) joins the events before it: they go out
      // together, in one write, when the stream next waits.
      const at = deadline();
      if (!pacer.isPast(at)) {
        if (!(await flush())) return 'client gone';
        if (!(await pacer.until(at))) return 'client gone';
        slice = new Slice();
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
      i += run.count - 1;
    } else {
      // Past the journal's bound no run is kept: the rest go one by one, without framing runs to drop.
      if (run !== undefined) runs = false;
      add(event);
    }
    // A long unpaced stream (speech as base64 events: 15 MB), or a paced one far behind, goes out
    // a few milliseconds of work at a time, so no other client waits for the whole of it.
    if (slice.over) {
      if (!(await flush())) return 'client gone';
      await slice.next();
    }
  }
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

/**
 * An upstream's answer, chunk by chunk as it arrives, so the client sees the upstream's pace. A
 * client that leaves ends the loop, and with it the upstream request (its signal aborts).
 */
async function writeRelay(ctx: Context, plan: Extract<Plan, { kind: 'relay' }>): Promise<void> {
  const res = ctx.res;
  ctx.respond = false;
  const own = ctx.response.headers as Record<string, string>;
  // The journal's copy is made first: writeHead adds the upstream's headers to the response's own.
  const shown = { ...own, ...plan.shownHeaders };
  const headers = { ...own, ...plan.headers };
  res.writeHead(plan.status, headers);
  res.flushHeaders();
  try {
    for await (const chunk of plan.body) {
      if (res.destroyed) break;
      if (!res.write(chunk)) await drain(res);
    }
  } catch {
    // The upstream broke off: the client gets the cut, as it would from the upstream itself.
    res.destroy();
    return;
  }
  if (!res.destroyed) res.end();
  const answered = plan.answered(JOURNAL_ANSWER_MAX);
  (ctx.state as MockState).sent = JSON.stringify({ status: plan.status, headers: shown, ...answered });
}

/** `framing`: how a stream plan is framed, as the route's door says (SSE unless it says otherwise). */
export async function write(ctx: Context, plan: Plan, fault?: Fault, framing: Framing = 'sse'): Promise<void> {
  if (fault?.kind === 'delay' && !(await waitForClient(ctx, fault.ms))) return;
  if (fault?.kind === 'reset') {
    ctx.respond = false;
    ctx.res.statusCode = NO_RESPONSE;
    ctx.req.socket.destroy();
    return;
  }
  if (plan.kind === 'stream') return writeStream(ctx, plan, fault, FRAMERS[framing]);
  if (plan.kind === 'relay') return writeRelay(ctx, plan);
  ctx.status = plan.status;
  ctx.set(plan.headers);
  const state = ctx.state as MockState;
  if (plan.kind === 'binary') {
    ctx.type = plan.contentType;
    const { data } = plan;
    if (data instanceof Uint8Array) ctx.body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    else {
      // Made as the client reads it: Koa pipes the pieces, one more as the socket drains.
      ctx.body = Readable.from(data.pieces, { objectMode: false });
      ctx.length = data.size;
    }
    const size = data instanceof Uint8Array ? data.byteLength : data.size;
    state.sent = sentBinary(plan.status, ctx.response.headers, plan.contentType, size, plan.about);
    return;
  }
  const made = plan.text ?? JSON.stringify(plan.body);
  if (fault?.kind !== 'malformed') return writeJson(ctx, plan.status, made, made);
  // `malformed` on a whole reply: a 200 whose JSON is cut short, journaled as the text it is.
  const json = typeof made === 'string' ? made : made.join('');
  const text = json.slice(0, Math.max(1, Math.floor(json.length / 2)));
  writeJson(ctx, plan.status, JSON.stringify(text), text);
}

/** `bodyJson`: the JSON of what the journal shows, `text` (whole or in pieces) unless that was cut short. */
function writeJson(ctx: Context, status: number, bodyJson: string | readonly string[], text: string | readonly string[]): void {
  // What `ctx.type = 'application/json'` sets, without its MIME table lookup on every answer.
  ctx.set('content-type', 'application/json; charset=utf-8');
  setTextBody(ctx, text);
  (ctx.state as MockState).sent = sentWhole(status, ctx.response.headers, bodyJson, text, 'application/json');
}

/** An error in the route's envelope: its status, headers and body. */
export function writeError(ctx: Context, envelope: Envelope, error: MockError, requestId?: string): void {
  const rendered = envelope(error, requestId);
  ctx.status = rendered.status;
  ctx.set(rendered.headers);
  const json = JSON.stringify(rendered.body);
  writeJson(ctx, rendered.status, json, json);
}
