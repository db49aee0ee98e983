// Answering one line of a batch: the line becomes a plain Exchange in the batch's session, as if
// its client had sent it alone at the line's time, and the operation its `url` names answers it
// (fixtures, the generator, scenarios, the journal, exactly as for a request sent alone). What a
// client could only see on a socket (a stream, a cut connection) has no place in a batch.
import { failure, invalid, MockError, type Envelope } from '../conversation/errors.js';
import { hashHex } from '../conversation/random.js';
import { lineDueMs } from '../media/batch-lifecycle.js';
import { createClock } from '../state/clock.js';
import type { Batch, BatchVendor, LineAnswer } from '../conversation/batch.js';
import type { Session } from '../state/session.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import { doorOperation, newNotes, sourced, type Door, type Exchange, type Notes, type Operation, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { upstreamTimedOut } from './upstream/forward.js';
import { serve } from './served.js';

/**
 * The route a line's `url` names (`POST` and that path in the model routes' table), or undefined
 * where the mock serves none. Handed in by the table, which lists the batch operations themselves.
 */
export type LineRoute = (url: string) => { operation: Operation; door: Door } | undefined;

/** The paths a batch of `vendor` may name: the rows the table marks so, in its order. Handed in like `LineRoute`. */
export type BatchEndpoints = (vendor: BatchVendor) => readonly string[];

const NO_UPLOADS = new Map();

function lineExchange(batch: Batch, session: Session, index: number, requestId: string, outward: () => void): Exchange {
  const line = batch.lines[index]!;
  // The file's line was checked when read: it parses, and its body is an object.
  const body = line.text === undefined ? line.body : (JSON.parse(line.text) as { body: unknown }).body;
  const upstream = batch.sender.upstream;
  return {
    // Forwarded to an upstream as a client would have sent it, when the batch's sender could; no
    // client waits on the line to give up on it, so the upstream's own deadline does.
    ...(upstream && { upstream, rawBody: JSON.stringify(body), signal: AbortSignal.timeout(upstream.timeoutMs), outward }),
    method: 'POST',
    path: line.url,
    params: {},
    query: {},
    search: '',
    headers: batch.sender.headers,
    body,
    bodySize: line.size,
    multipart: false,
    uploads: NO_UPLOADS,
    origin: batch.sender.origin,
    session,
    caller: batch.sender.caller,
    requestId,
  };
}

/** A refusal before any operation ran, in the envelope the line's route (or the path's family) answers in. */
function refused(error: MockError, envelope: Envelope): Outcome {
  return { notes: newNotes(), headers: {}, envelope, error };
}

/** The operation's answer, or what the mock answers a line it cannot take as asked. */
async function outcomeOf(mock: Mock, exchange: Exchange, found: ReturnType<LineRoute>): Promise<Outcome> {
  if (!found) return refused(failure('unknown_url', `Unknown request URL: POST ${exchange.path}.`), openaiEnvelope);
  if ((exchange.body as { stream?: unknown }).stream === true) {
    return refused(invalid('A batch request cannot stream: leave out stream.', 'body.stream'), found.door.envelope(exchange));
  }
  return found.operation(mock, exchange, found.door);
}

interface Answered {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  notes: Notes;
}

/** The HTTP answer an outcome stands for, as JSON; a fault that would break the connection fails the line. */
function failedWith(outcome: Outcome, error: MockError, requestId: string): Answered {
  const rendered = outcome.envelope(error, requestId);
  return { status: rendered.status, headers: { ...outcome.headers, ...rendered.headers }, body: rendered.body, notes: outcome.notes };
}

async function answered(outcome: Outcome, { path: url, upstream }: Exchange, requestId: string): Promise<Answered> {
  const failed = (error: MockError): Answered => failedWith(outcome, error, requestId);
  if ('error' in outcome) return failed(outcome.error);
  const { plan, fault } = outcome;
  if (fault && fault.kind !== 'delay') return failed(new MockError('server_error', `The request was interrupted (scenario fault ${fault.kind}).`));
  if (plan.kind === 'json') return { status: plan.status, headers: outcome.headers, body: plan.body, notes: outcome.notes };
  if (plan.kind === 'relay') {
    // An upstream's answer, read to its end (which also records it, with --record).
    try {
      for await (const _chunk of plan.body);
    } catch {
      // Only the deadline ends a line's read early: nothing else aborts it.
      return failed(upstreamTimedOut(upstream!, outcome.notes.upstream?.url ?? upstream!.url));
    }
    // Whatever the relay kept of it (bounded by the relay, as the journal's copy is).
    const relayed = plan.answered(Number.MAX_SAFE_INTEGER);
    const notes = { ...outcome.notes, ...(await outcome.late) };
    if ('body' in relayed) return { status: plan.status, headers: plan.headers, body: relayed.body, notes };
  }
  return failed(new MockError('server_error', `The answer to ${url} is not a JSON body, which a batch cannot hold.`));
}

/**
 * Answers line `index` at its time on the clock, serves it with the batch's id, and returns what
 * it was answered; an answer `refuse` finds too large for the batch's room is that refusal instead.
 * `outward` is called when the line goes to the upstream, so reads of the batch stop waiting on it.
 */
export async function answerLine(mock: Mock, session: Session, batch: Batch, index: number, route: LineRoute, refuse: (bytes: number) => MockError | undefined, outward: () => void): Promise<LineAnswer> {
  const dueMs = lineDueMs(batch, index);
  // From the batch and the line, not the mock's request counter: a line's id never depends on
  // which other requests were served while the batch caught up.
  const requestId = `req_${hashHex(`${mock.options.seed}|${batch.id}|${index}`, 24)}`;
  const started = performance.now();
  const exchange = lineExchange(batch, session, index, requestId, outward);
  const found = route(exchange.path);
  // The line is answered as at its own time, however late the clock was read.
  const outcome = await outcomeOf({ ...mock, clock: createClock(new Date(dueMs).toISOString()) }, exchange, found);
  let answer = await answered(outcome, exchange, requestId);
  let bodyText = JSON.stringify(answer.body);
  const refusal = refuse(bodyText.length);
  if (refusal) {
    answer = failedWith(outcome, refusal, requestId);
    bodyText = JSON.stringify(answer.body);
  }
  const headers = { 'content-type': 'application/json', ...answer.headers, 'x-request-id': requestId, ...sourced(answer.notes, answer.status) };
  serve(mock, {
    id: requestId,
    time: new Date(dueMs).toISOString(),
    session,
    method: 'POST',
    path: exchange.path,
    // The line's url is the row's path: the batch endpoints take no parameter.
    route: found ? exchange.path : '-',
    operation: found ? doorOperation(found.door) : '-',
    status: answer.status,
    notes: answer.notes,
    startMs: started,
    endMs: performance.now(),
    headers: exchange.headers,
    body: JSON.stringify(exchange.body),
    response: `{"status":${answer.status},"headers":${JSON.stringify(headers)},"body":${bodyText}}`,
    batch: batch.id,
  });
  return { status: answer.status, requestId, bodyText };
}
