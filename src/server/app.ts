// The Koa app: one frame around every request (request id, CORS, session, error mapping, log
// line, served event), then the route table. Errors are thrown anywhere and caught here once,
// then rendered by the writer in the envelope of the route that was running.
import Koa, { type Context, type Next } from 'koa';
import { CONFIG_LIMITS } from '../config/bounds.js';
import { failure, MockError } from '../conversation/errors.js';
import { newNotes, sourced, SOURCE_HEADER } from '../exchange/exchange.js';
import type { Mock } from '../exchange/mock.js';
import { nextRequestId } from '../exchange/request.js';
import { checkSessionId, DEFAULT_SESSION } from '../state/sessions.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import { corsRequestHeaders } from '../styles/registry.js';
import { admitAdmin, type AdminAccess } from './admin-guard.js';
import { isAdminPath, isControlPath } from './admin-path.js';
import { bodyParser } from './body.js';
import { watchInFlight } from './in-flight.js';
import { NO_FRAMING } from './page-policy.js';
import type { OpenStreams } from './open-streams.js';
import { printable } from './printable.js';
import { answeredByRoute, record } from './record.js';
import { routes, routing } from './routes.js';
import type { MockState } from './state.js';
import { familyOf, unknownUrlMessage } from './unknown-url.js';
import { writeError } from './writer.js';

/** What a page may send in a preflight: every style's own headers and the mock's. */
const ALLOWED_HEADERS = corsRequestHeaders(['x-mock-session', 'x-mock-scenario', 'x-mock-latency', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']);

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
 * The model API is open to every page: frontends call it from wherever they are served. Set on
 * Node's response, as `ctx.set` would before anything is sent, without Koa's delegated call.
 */
function cors(ctx: Context): void {
  const res = ctx.res;
  res.setHeader('access-control-allow-origin', ctx.req.headers.origin || '*');
  res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
  res.setHeader('vary', 'origin');
}

/** Whether a route answers this method and path. */
type Known = (path: string, method: string) => boolean;

function frame(mock: Mock, access: AdminAccess, streams: OpenStreams, known: Known) {
  const finish = (ctx: Context): void => record(mock, ctx, (ctx.state as MockState).startedMs);
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = performance.now();
    const path = ctx.request.path;
    if (!isAdminPath(path)) {
      cors(ctx);
    } else {
      // Another site must not frame the inspector and click its buttons for the developer (SPEC 13).
      ctx.set(NO_FRAMING);
      const refusal = admitAdmin(ctx, access);
      if (refusal) {
        mock.log('info', printable(`${ctx.method} ${ctx.path} admin refused: ${refusal.message}`));
        writeError(ctx, openaiEnvelope, refusal);
        return;
      }
    }
    if (ctx.method === 'OPTIONS') {
      ctx.set('access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS');
      ctx.set('access-control-allow-headers', ctx.get('access-control-request-headers') || ALLOWED_HEADERS);
      ctx.set('access-control-max-age', '86400');
      ctx.status = 204;
      return;
    }
    // Node joins a repeated header it does not know into one string, as `ctx.get` returns it.
    const sessionId = (ctx.req.headers['x-mock-session'] as string | undefined) || DEFAULT_SESSION;
    try {
      checkSessionId(sessionId, 'x-mock-session');
    } catch (refusal) {
      // No session to journal it in: the log says it.
      mock.log('info', printable(`${ctx.method} ${ctx.path} refused: ${(refusal as MockError).message}`));
      writeError(ctx, openaiEnvelope, refusal as MockError);
      return;
    }
    const requestId = nextRequestId(mock, sessionId);
    ctx.res.setHeader('x-request-id', requestId);
    ctx.res.setHeader('request-id', requestId);
    const state = ctx.state as MockState;
    state.requestId = requestId;
    state.startedMs = started;
    state.finish = finish;
    state.streams = streams;
    const control = isControlPath(path);
    state.session = control ? mock.sessions.get(sessionId) : mock.sessions.heard(sessionId);
    state.envelope = openaiEnvelope;
    state.notes = newNotes();
    // A fake MCP server's transport is not a request in flight: its tool calls are announced when served.
    if (!control && !path.startsWith('/mcp/')) {
      state.inFlight = watchInFlight(mock, () => ({ id: requestId, time: new Date(mock.clock.now()).toISOString(), session: sessionId, method: ctx.method, path: ctx.path }));
    }
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.respond !== false) {
        state.envelope = familyOf(ctx.path).style.envelope;
        throw failure('unknown_url', unknownUrlMessage(ctx.method, ctx.path, (path) => known(path, ctx.method)));
      }
    } catch (error) {
      if (ctx.respond === false || ctx.res.headersSent) {
        ctx.res.destroy();
      } else {
        const mockError = asMockError(error);
        if (!mockError) mock.log('error', `${ctx.method} ${ctx.path}: ${(error as Error).stack ?? String(error)}`);
        writeError(ctx, state.envelope, mockError ?? new MockError('server_error', 'The mock hit an internal error; see its log.'), requestId);
        if (answeredByRoute(ctx)) ctx.set(sourced(state.notes, ctx.status));
      }
    }
    // A stream handed to the pacing clock is recorded when it ends (server/writer.ts).
    if (!state.detached) record(mock, ctx, started);
  };
}

export function createApp(mock: Mock, access: AdminAccess, streams: OpenStreams): Koa {
  const app = new Koa();
  app.silent = true;
  const within = (limit: number) => bodyParser(mock, false, Math.min(mock.options.bodyLimitBytes, limit));
  const { router, exact } = routes(mock, {
    json: bodyParser(mock, false),
    multipart: bodyParser(mock, true),
    document: within(CONFIG_LIMITS.fileBytes),
    jsonWithin: within,
  });
  app.use(frame(mock, access, streams, (path, method) => router.match(path, method).route));
  app.use(routing(exact, router));
  return app;
}
