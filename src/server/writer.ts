// The single writer: the only code that puts bytes on a response. It performs a plan (JSON,
// binary or a paced stream, framed as its door says: framers.ts) with an optional fault, and
// when the client goes away it stops at once, leaving no timer and no listener behind.
import { Readable } from 'node:stream';
import type { ServerResponse } from 'node:http';
import type { ShellContext } from './shell-context.js';
import { MockError, type Envelope } from '../conversation/errors.js';
import { JOURNAL_ANSWER_MAX, type Fault, type Framing, type Plan } from '../conversation/plan.js';
import { type BodySink, pacedSink } from './chunk-sink.js';
import { FRAMERS, type Framer } from './framers.js';
import { Pacer } from './pacer.js';
import { drain, unlessClosed } from './response-waits.js';
import { SentStream, sentBinary, sentWhole } from './sent.js';
import { isPaced, writeEvents, type StreamEnd } from './stream-events.js';
import { isLate, whenMade } from './late-reply.js';
import { setTextBody } from './text-body.js';
import type { MockState } from './state.js';

/** The journal's status for a request whose client left before the answer (nginx's convention). */
const CLIENT_GONE = 499;
/** The journal's status for a request the mock answered by dropping the socket (as browsers show it). */
const NO_RESPONSE = 0;

/** Resolves after `ms`, or early (false) when the response closes. */
function pause(res: ServerResponse, ms: number): Promise<boolean> {
  if (ms <= 0 && !res.destroyed && !res.writableEnded) return Promise.resolve(true);
  let timer: NodeJS.Timeout | undefined;
  return unlessClosed(res, new Promise((done) => (timer = setTimeout(done, ms))), () => clearTimeout(timer));
}

/** The request is over: nothing more is written, and it is journaled as 499. */
function clientLeft(ctx: ShellContext): false {
  ctx.respond = false;
  ctx.res.statusCode = CLIENT_GONE;
  return false;
}

/**
 * Waits `ms` before the answer (scenario delays and timeouts). False when the client left first:
 * the request is then over, nothing more is written and it is journaled as 499.
 */
export async function waitForClient(ctx: ShellContext, ms: number): Promise<boolean> {
  return (await pause(ctx.res, ms)) || clientLeft(ctx);
}

/** Waits for the request's turn of the loop (state/event-loop.ts); false, as `waitForClient`, when the client left first. */
export async function waitForTurn(ctx: ShellContext, turn: Promise<void>): Promise<boolean> {
  return (await unlessClosed(ctx.res, turn)) || clientLeft(ctx);
}

/**
 * HTTP/2 has no `connection` header (Node drops it with a warning): its streams share one connection
 * anyway. On HTTP/1 the header says what Node will do with the connection once the stream ends: a
 * `keep-alive` given to Node would keep even one its client asked to close.
 */
function streamHeaders(framer: Framer, headers: Record<string, string>, keepAlive: boolean, httpVersionMajor: number): Record<string, string> {
  const own: Record<string, string> = { ...headers, 'content-type': framer.contentType, 'cache-control': 'no-cache' };
  if (httpVersionMajor !== 2) own.connection = keepAlive ? 'keep-alive' : 'close';
  return own;
}

/**
 * Writes the headers, then hands the rest of the stream to the pacing clock and the response's
 * events: the request's middleware may return (`detached`) instead of waiting with its suspended
 * functions for the stream's seconds, and the stream's end does what the frame would have done
 * after it. Resolves once the stream is over.
 */
function writeStream(ctx: ShellContext, plan: Extract<Plan, { kind: 'stream' }>, fault: Fault | undefined, framer: Framer): Promise<void> {
  const res = ctx.res;
  const state = ctx.state as MockState;
  const own = streamHeaders(framer, plan.headers, res.shouldKeepAlive, ctx.req.httpVersionMajor);
  if (!ctx.headStream?.(plan.status, own)) {
    ctx.respond = false;
    // writeHead is handed only the stream's own headers, as it sets again each it is handed; what the
    // journal shows is then the response's, read once at the stream's end (sent.ts).
    res.writeHead(plan.status, own);
  }
  // The headers go with the stream's first write: an unpaced stream's only one, a paced stream's
  // events before its first pause.
  const paced = isPaced(plan.pacing) ? pacedSink(res) : undefined;
  const sink: BodySink = paced ?? { write: (data) => res.write(data), drains: res };
  const sent = new SentStream(plan.status, () => ctx.response.headers as Record<string, unknown>);
  const pacer = new Pacer(res, fault?.kind === 'delay' ? undefined : state.readMs);
  const release = state.streams.open(pacer.interrupt);
  state.detached = true;
  return new Promise((over) => {
    const ended = (end: StreamEnd): void => {
      try {
        // The journal keeps 499 for a stream its client abandoned (the headers said 200).
        if (end === 'client gone') res.statusCode = CLIENT_GONE;
        pacer.stop();
        sent.settle();
        state.sent = sent.json;
        release();
        if (end === 'broken') res.destroy();
        state.finish?.(ctx);
      } catch (error) {
        // Where Koa puts an error of a request's middleware: nothing escapes into the pacing clock.
        ctx.onerror(error as Error);
      }
      over();
    };
    const writing = { pacer, sent, progress: state.inFlight?.progress, framer, sink };
    if (paced && isLate(plan)) {
      // A reply made after the headers (late-reply.ts): they go alone, now.
      paced.showHeaders();
      return whenMade(pacer, plan, (end, deadlines) => (end ? ended(end) : writeEvents(res, plan, fault, writing, ended, deadlines)));
    }
    writeEvents(res, plan, fault, writing, ended);
    // A paced stream whose first pause comes before any event shows its headers before that pause.
    paced?.showHeaders();
  });
}

/**
 * An upstream's answer, chunk by chunk as it arrives, so the client sees the upstream's pace. A
 * client that leaves ends the loop, and with it the upstream request (its signal aborts).
 */
async function writeRelay(ctx: ShellContext, plan: Extract<Plan, { kind: 'relay' }>): Promise<void> {
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
export async function write(ctx: ShellContext, plan: Plan, fault?: Fault, framing: Framing = 'sse'): Promise<void> {
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
function writeJson(ctx: ShellContext, status: number, bodyJson: string | readonly string[], text: string | readonly string[]): void {
  // What `ctx.type = 'application/json'` sets, without its MIME table lookup on every answer.
  ctx.set('content-type', 'application/json; charset=utf-8');
  setTextBody(ctx, text);
  (ctx.state as MockState).sent = sentWhole(status, ctx.response.headers, bodyJson, text, 'application/json');
}

/** An error in the route's envelope: its status, headers and body. */
export function writeError(ctx: ShellContext, envelope: Envelope, error: MockError, requestId?: string): void {
  const rendered = envelope(error, requestId);
  ctx.status = rendered.status;
  ctx.set(rendered.headers);
  const json = JSON.stringify(rendered.body);
  writeJson(ctx, rendered.status, json, json);
}
