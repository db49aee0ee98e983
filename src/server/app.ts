// The Koa app: one frame around every request (request id, CORS, session, error mapping, log
// line, served event), then the route table. Errors are thrown anywhere and caught here once,
// then rendered by the writer in the envelope of the route that was running. Built at the first
// request that is not a plain hit (listener.ts).
import Koa, { type Context, type Next } from 'koa';
import { CONFIG_LIMITS } from '../config/bounds.js';
import { failure, type MockError } from '../conversation/errors.js';
import type { Mock } from '../exchange/mock.js';
import { checkSessionId, DEFAULT_SESSION } from '../state/sessions.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import { corsRequestHeaders } from '../styles/registry.js';
import { admitAdmin, type AdminAccess } from './admin-guard.js';
import { isAdminPath } from './admin-path.js';
import { bodyParser } from './body.js';
import { caught, cors, finish, openRequest } from './frame.js';
import { NO_FRAMING } from './page-policy.js';
import type { OpenStreams } from './open-streams.js';
import { printable } from './printable.js';
import { record } from './record.js';
import { routes, routing } from './router.js';
import type { DualListener } from './shared-port.js';
import type { MockState } from './state.js';
import { familyOf, unknownUrlMessage } from './unknown-url.js';
import { writeError } from './writer.js';

/** What a page may send in a preflight: every style's own headers and the mock's. */
const ALLOWED_HEADERS = corsRequestHeaders(['x-mock-session', 'x-mock-scenario', 'x-mock-latency', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']);

/** Whether a route answers this method and path. */
type Known = (path: string, method: string) => boolean;

function frame(mock: Mock, access: AdminAccess, streams: OpenStreams, known: Known) {
  const end = finish(mock);
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
    openRequest(mock, ctx, sessionId, started, end, streams);
    const state = ctx.state as MockState;
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.respond !== false) {
        state.envelope = familyOf(ctx.path).style.envelope;
        throw failure('unknown_url', unknownUrlMessage(ctx.method, ctx.path, (path) => known(path, ctx.method)));
      }
    } catch (error) {
      caught(mock, ctx, error);
    }
    // A stream handed to the pacing clock is recorded when it ends (server/writer.ts).
    if (!state.detached) record(mock, ctx, started);
  };
}

/** The Koa app's request listener, with every route of the model API, the admin API and the inspector. */
export function koaListener(mock: Mock, access: AdminAccess, streams: OpenStreams): DualListener {
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
  return app.callback();
}
