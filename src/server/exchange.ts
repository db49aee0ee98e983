// The shell's two halves of an operation call: a Koa request read as a plain Exchange, and the
// Outcome performed on the response (the wait, the headers, the error or the plan).
import type { ShellContext } from './shell-context.js';
import { sourced, type Exchange } from '../exchange/exchange.js';
import type { Mock } from '../exchange/mock.js';
import type { Upstream } from '../conversation/upstream.js';
import { checkPathParams, originRefusal } from '../exchange/upstream/origin.js';
import type { ModelRoute } from '../exchange/model-routes.js';
import { unflattenForm } from '../styles/form.js';
import { isControlPath } from './admin-path.js';
import type { MockState } from './state.js';
import { takeUploads } from './uploads.js';
import { waitForClient, write } from './writer.js';

/** Tells a browser's network panel where each answer of the model API came from. */

function isMultipart(ctx: ShellContext): boolean {
  return ctx.req.headers['content-type']?.includes('multipart/') === true && ctx.request.is('multipart') !== false;
}

/** The body as JSON would carry it: a multipart form's bracketed names nested again. */
function bodyOf(ctx: ShellContext, multipart: boolean): unknown {
  const body = ctx.request.body;
  if (!multipart || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return unflattenForm(body as Record<string, string | string[]>);
}

/** Aborted when the response closes before it was finished: the client left. */
function clientGone(ctx: ShellContext): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * The upstream this request may spend (SPEC 12): none for a page of another site, which is
 * answered as without an upstream, the journal saying why; and no path parameter may climb out
 * of its segment on the upstream (a 400).
 */
function upstreamFor(ctx: ShellContext, upstream: Upstream | undefined): Upstream | undefined {
  if (!upstream) return undefined;
  checkPathParams((ctx as unknown as { params?: Record<string, string> }).params ?? {});
  const refusal = originRefusal(upstream, ctx.get('origin') || undefined);
  if (refusal === undefined) return upstream;
  (ctx.state as MockState).upstreamRefused = refusal;
  return undefined;
}

/**
 * Read from Node's request where Koa's context would only pass it on: each of its delegated getters
 * cost a hit a megamorphic lookup, and the query of a URL without one was parsed all the same.
 * (The origin stays a value: a getter here, a new closure a request, gave every exchange a map of
 * its own, and every step that reads one went megamorphic.)
 */
export function exchangeOf(ctx: ShellContext, configured: Upstream | undefined): Exchange {
  const state = ctx.state as MockState;
  const multipart = isMultipart(ctx);
  const upstream = upstreamFor(ctx, configured);
  const search = ctx.request.querystring;
  return {
    method: ctx.req.method!,
    path: ctx.request.path,
    params: (ctx as unknown as { params?: Record<string, string> }).params ?? {},
    query: search === '' ? {} : (ctx.request.query as Record<string, string>),
    search,
    headers: ctx.req.headers as Record<string, string>,
    body: bodyOf(ctx, multipart),
    bodySize: state.bodySize ?? 0,
    multipart,
    // Every key spelled out, those without a value too: a literal with conditional spreads is
    // built key by key at run time, a map of its own for each combination.
    upstream,
    rawBody: upstream && (ctx.request as { rawBody?: string | Buffer }).rawBody,
    signal: upstream && clientGone(ctx),
    uploads: takeUploads(ctx),
    // Koa's `ctx.origin` is the request's Origin header, not the mock's own address.
    origin: `${ctx.request.protocol}://${ctx.request.host}`,
    session: state.session,
    caller: { group: state.group, scenario: state.keyScenario },
    requestId: state.requestId,
    started: state.inFlight?.announce,
  };
}

/** A route's last step: runs its operation and performs the outcome. Errors go to the frame. */
export function perform(mock: Mock, route: ModelRoute) {
  return async (ctx: ShellContext): Promise<void> => {
    const exchange = exchangeOf(ctx, mock.options.upstream);
    const outcome = await route.operation(mock, exchange, route.door);
    const state = ctx.state as MockState;
    state.notes = outcome.notes;
    state.envelope = outcome.envelope;
    ctx.set(outcome.headers);
    if ('error' in outcome) {
      // A client that leaves during a scenario's wait gets nothing and is journaled as gone.
      if (outcome.waitMs && !(await waitForClient(ctx, outcome.waitMs))) return;
      throw outcome.error;
    }
    if (!isControlPath(ctx.path)) ctx.set(sourced(outcome.notes));
    // An answer read from what the mock holds has no subject: its row shows as it is written.
    state.inFlight?.announce(outcome.notes.model, '');
    const written = write(ctx, outcome.plan, outcome.fault, route.door.framing?.(exchange));
    // A stream's headers are out: it goes on without this route, and its end records it (writer.ts).
    if (state.detached) return;
    await written;
    // A relayed answer's body has been read through by now, so its last notes are known.
    if (outcome.late) state.notes = { ...state.notes, ...(await outcome.late) };
  };
}
