// The Koa app: one frame around every request (request id, CORS, session, error mapping, log
// line, journal entry), then the route table. Errors are thrown anywhere and caught here once,
// then rendered by the writer in the envelope of the route that was running.
import Koa, { type Context, type Next } from 'koa';
import { failure, MockError } from '../conversation/errors.js';
import { hashHex } from '../conversation/random.js';
import { newNotes, sourceOf } from '../exchange/exchange.js';
import type { Mock } from '../exchange/mock.js';
import { DEFAULT_SESSION } from '../state/sessions.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import { corsRequestHeaders } from '../styles/registry.js';
import { admitAdmin, isAdminPath, type AdminAccess } from './admin-guard.js';
import { bodyParser } from './body.js';
import { SOURCE_HEADER } from './exchange.js';
import type { OpenStreams } from './open-streams.js';
import { isControlPath, record } from './record.js';
import { routes } from './routes.js';
import type { Tracing } from './tracing.js';
import type { MockState } from './state.js';
import { writeError } from './writer.js';

/** What a page may send in a preflight: every style's own headers and the mock's. */
const ALLOWED_HEADERS = corsRequestHeaders(['x-mock-session', 'x-mock-scenario', 'x-mock-latency']);

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
const EXPOSED_HEADERS = `*, ${SOURCE_HEADER}, x-request-id, request-id, retry-after`;

/** The model API is open to every page: frontends call it from wherever they are served. */
function cors(ctx: Context): void {
  ctx.set('access-control-allow-origin', ctx.get('origin') || '*');
  ctx.set('access-control-expose-headers', EXPOSED_HEADERS);
  ctx.set('vary', 'origin');
}

function frame(mock: Mock, access: AdminAccess, streams: OpenStreams, tracing: Tracing | undefined) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = performance.now();
    if (!isAdminPath(ctx.path)) {
      cors(ctx);
    } else {
      const refusal = admitAdmin(ctx, access);
      if (refusal) {
        mock.log('info', `${ctx.method} ${ctx.path} admin refused: ${refusal.message}`);
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
    const sessionId = ctx.get('x-mock-session') || DEFAULT_SESSION;
    const requestId = `req_${hashHex(`${mock.options.seed}|${sessionId}|${mock.requestCount++}`, 24)}`;
    ctx.set('x-request-id', requestId);
    ctx.set('request-id', requestId);
    const state = ctx.state as MockState;
    state.requestId = requestId;
    state.streams = streams;
    state.session = mock.sessions.get(sessionId);
    state.envelope = openaiEnvelope;
    state.notes = newNotes();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.respond !== false) {
        throw failure('unknown_url', `Unknown request URL: ${ctx.method} ${ctx.path}.`);
      }
    } catch (error) {
      if (ctx.respond === false || ctx.res.headersSent) {
        ctx.res.destroy();
      } else {
        const mockError = asMockError(error);
        if (!isControlPath(ctx.path)) ctx.set(SOURCE_HEADER, sourceOf(state.notes));
        if (!mockError) mock.log('error', `${ctx.method} ${ctx.path}: ${(error as Error).stack ?? String(error)}`);
        writeError(ctx, state.envelope, mockError ?? new MockError('server_error', 'The mock hit an internal error; see its log.'), requestId);
      }
    }
    record(mock, ctx, started, tracing);
  };
}

export function createApp(mock: Mock, access: AdminAccess, streams: OpenStreams, tracing?: Tracing): Koa {
  const app = new Koa();
  app.silent = true;
  app.use(frame(mock, access, streams, tracing));
  const router = routes(mock, { json: bodyParser(mock, false), multipart: bodyParser(mock, true) });
  app.use(router.routes());
  return app;
}
