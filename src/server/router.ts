// Koa's route table: the model API's rows (exchange/model-routes.ts, each row's steps from
// routes.ts) and the admin API's (admin/routes.ts), each row mounted as a short chain of the
// shared steps (the door that names the envelope, the key, the required headers, the body) ending
// in its operation.
import Router from '@koa/router';
import compose from 'koa-compose';
import type { Context, Middleware, Next } from 'koa';
import { ADMIN_ROUTES } from '../admin/routes.js';
import { MockError } from '../conversation/errors.js';
import { JsonAnswer, TextAnswer } from '../exchange/admin/request.js';
import type { Mock } from '../exchange/mock.js';
import { MODEL_ROUTES } from '../exchange/model-routes.js';
import { authenticate } from './auth.js';
import type { BodyParsers } from './body.js';
import { inspectorRoutes } from './inspector-routes.js';
import { mcpEndpoint, mcpMethodNotAllowed } from './mcp.js';
import { modelRow, turnOf, type Check } from './routes.js';
import { toolServerEndpoint } from './tool-servers.js';
import type { MockState } from './state.js';
import { write } from './writer.js';

/**
 * A check as a step of Koa's chain. Not async: Koa's dispatch turns a throw into the chain's
 * rejection, and each async step cost the request a promise and its microtasks.
 */
const asStep =
  (check: Check): Middleware =>
  (ctx, next) => {
    check(ctx);
    return next();
  };

const inTurn: Middleware = (ctx, next) => {
  const turn = turnOf(ctx);
  return turn ? turn.then((goes) => (goes ? next() : undefined)) : next();
};

/**
 * The model rows whose path has no parameter, by method and path exactly as written: found with
 * one lookup instead of the router's test of every route's pattern (the hot path of a test loop).
 * Any other spelling (a trailing slash, HEAD) goes on to the router, which has every row too.
 */
export type ExactRoutes = Map<string, Middleware>;

function modelRoutes(router: Router, mock: Mock, bodies: BodyParsers, exact: ExactRoutes): void {
  const auth = authenticate(mock);
  for (const route of MODEL_ROUTES) {
    const { checks, answer } = modelRow(mock, route, auth);
    const steps: Middleware[] = checks.map(asStep);
    if (route.body === 'json' && route.bodyLimit) steps.push(bodies.jsonWithin(route.bodyLimit));
    else if (route.body !== 'none') steps.push(bodies[route.body]);
    steps.push(inTurn, answer);
    router.register(route.path, [route.method], steps);
    if (!route.path.includes(':')) exact.set(`${route.method} ${route.path}`, matched(route.path, compose(steps)));
  }
}

/** What the router leaves on a context it routed, for the metrics' route label and the operation's params. */
function matched(path: string, steps: Middleware): Middleware {
  return (ctx, next) => {
    Object.assign(ctx, { params: {}, _matchedRoute: path });
    return steps(ctx, next);
  };
}

/** The exact rows first, then the router for everything else. */
export function routing(exact: ExactRoutes, router: Router): Middleware {
  const routed = router.routes() as Middleware;
  return (ctx, next) => (exact.get(`${ctx.method} ${ctx.path}`) ?? routed)(ctx, next);
}

function adminAuth(mock: Mock): Middleware {
  return (ctx: Context, next: Next) => {
    const token = mock.options.adminToken;
    if (token && ctx.get('authorization') !== `Bearer ${token}`) {
      throw new MockError('unauthorized', 'The admin API needs "Authorization: Bearer <admin token>".');
    }
    return next();
  };
}

function adminRoutes(router: Router, mock: Mock, { json, document }: BodyParsers): void {
  const guard = adminAuth(mock);
  for (const route of ADMIN_ROUTES) {
    const answer: Middleware = async (ctx) => {
      const request = { query: ctx.query as Record<string, string>, headers: ctx.headers as Record<string, string>, body: ctx.request.body, params: ctx.params, bodySize: (ctx.state as MockState).bodySize };
      const result = await route.run(mock, request);
      await write(
        ctx,
        result instanceof TextAnswer
          ? { kind: 'binary', status: route.status, headers: {}, contentType: result.contentType, data: Buffer.from(result.text) }
          : result instanceof JsonAnswer
            ? { kind: 'json', status: result.status, headers: {}, body: result.body }
            : { kind: 'json', status: route.status, headers: {}, body: result },
      );
    };
    const body = route.body === 'document' ? [document] : route.body ? [json] : [];
    router.register(route.path, [route.method], [guard, ...body, inTurn, answer]);
  }
  // The transport reads its own body, so that a body that is not JSON gets a JSON-RPC error.
  router.post('/__admin/mcp', guard, inTurn, mcpEndpoint(mock));
  router.register('/__admin/mcp', ['GET', 'DELETE'], [guard, mcpMethodNotAllowed]);
}

export function routes(mock: Mock, bodies: BodyParsers): { router: Router; exact: ExactRoutes } {
  const router = new Router();
  const exact: ExactRoutes = new Map();
  modelRoutes(router, mock, bodies, exact);
  // The fake MCP servers (SPEC 22): no key; the transport reads its own body.
  router.register('/mcp/:server', ['GET', 'POST', 'DELETE'], [inTurn, toolServerEndpoint(mock)]);
  adminRoutes(router, mock, bodies);
  inspectorRoutes(router, mock);
  return { router, exact };
}
