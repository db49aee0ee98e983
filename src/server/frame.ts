// The frame's work on a model request, the same for Koa's context and a plain hit's
// (server/plain-hit.ts): CORS, the request id, what the steps after it read, the errors they throw
// rendered in the route's envelope, and the end that records the request.
import { MockError } from '../conversation/errors.js';
import { newNotes, sourced, SOURCE_HEADER } from '../exchange/exchange.js';
import type { Mock } from '../exchange/mock.js';
import { nextRequestId } from '../exchange/request.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import { isControlPath } from './admin-path.js';
import { watchInFlight } from './in-flight.js';
import type { OpenStreams } from './open-streams.js';
import { answeredByRoute, record } from './record.js';
import type { ShellContext } from './shell-context.js';
import type { MockState } from './state.js';
import { writeError } from './writer.js';

/** Errors other code raises (Koa, the router) translated into the mock's vocabulary; body errors come translated. */
function asMockError(error: unknown): MockError | undefined {
  if (error instanceof MockError) return error;
  const status = (error as { status?: number }).status;
  if (status !== undefined && status >= 400 && status < 500) {
    return new MockError('invalid_request', (error as Error).message || 'The request could not be read.', { status });
  }
  return undefined;
}

// `*` covers requests without credentials; a credentialed fetch sees only the names listed.
const EXPOSED_HEADERS = `*, ${SOURCE_HEADER}, x-request-id, request-id, retry-after, mcp-session-id`;

/**
 * The model API is open to every page: frontends call it from wherever they are served. Set with
 * `ctx.set`, which a plain hit keeps with its own head (server/answer-head.ts).
 */
export function cors(ctx: ShellContext): void {
  ctx.set('access-control-allow-origin', ctx.req.headers.origin || '*');
  ctx.set('access-control-expose-headers', EXPOSED_HEADERS);
  ctx.set('vary', 'origin');
}

/** The frame's end of a request, once its answer (or its stream, when handed over) is through. */
export const finish = (mock: Mock) => (ctx: ShellContext): void => record(mock, ctx, (ctx.state as MockState).startedMs);

/**
 * A request of session `sessionId` (checked) taken in: its ids, and the state the steps after the
 * frame read. `started`: `performance.now()` as it came in.
 */
export function openRequest(mock: Mock, ctx: ShellContext, sessionId: string, started: number, end: (ctx: ShellContext) => void, streams: OpenStreams): void {
  const requestId = nextRequestId(mock, sessionId);
  ctx.set('x-request-id', requestId);
  ctx.set('request-id', requestId);
  const state = ctx.state as MockState;
  const path = ctx.path;
  state.requestId = requestId;
  state.startedMs = started;
  state.finish = end;
  state.streams = streams;
  const control = isControlPath(path);
  state.session = control ? mock.sessions.get(sessionId) : mock.sessions.heard(sessionId);
  state.envelope = openaiEnvelope;
  state.notes = newNotes();
  // A fake MCP server's transport is not a request in flight: its tool calls are announced when served.
  if (!control && !path.startsWith('/mcp/')) {
    state.inFlight = watchInFlight(mock, () => ({ id: requestId, time: new Date(mock.clock.now()).toISOString(), session: sessionId, method: ctx.method, path }));
  }
}

/** An error of the request's steps: written in the route's envelope, or the connection dropped when the answer had begun. */
export function caught(mock: Mock, ctx: ShellContext, error: unknown): void {
  if (ctx.respond === false || ctx.res.headersSent) {
    ctx.res.destroy();
    return;
  }
  const state = ctx.state as MockState;
  const mockError = asMockError(error);
  if (!mockError) mock.log('error', `${ctx.method} ${ctx.path}: ${(error as Error).stack ?? String(error)}`);
  writeError(ctx, state.envelope, mockError ?? new MockError('server_error', 'The mock hit an internal error; see its log.'), state.requestId);
  if (answeredByRoute(ctx)) ctx.set(sourced(state.notes, ctx.status));
}
