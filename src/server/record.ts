// After every request: one log line (and at debug level the match decision) and, outside the
// admin API, one served event (the journal entry, the inspector's event, metrics, the span), all
// from the operation's notes and what the writer sent.
import type { ShellContext } from './shell-context.js';
import { doorOperation, sourceOf, type Notes } from '../exchange/exchange.js';
import type { Mock } from '../exchange/mock.js';
import { serve } from '../exchange/served.js';
import { JOURNAL_BODY_MAX } from '../state/journal.js';
import { isControlPath, isInspectorFile } from './admin-path.js';
import { printable } from './printable.js';
import type { MockState } from './state.js';

/** Large bodies (pictures as base64, long documents) would make a full journal hold gigabytes. */
function journalBody(body: unknown, size: number | undefined): unknown {
  if (size === undefined || size <= JOURNAL_BODY_MAX) return body ?? null;
  return `[a body of about ${size} characters, not kept: the journal keeps bodies up to ${JOURNAL_BODY_MAX}]`;
}

/** The JSON the journal keeps of the request body: a plain JSON body's own bytes when it was read whole. */
function journalBodyJson(ctx: ShellContext, state: MockState, notes: Notes): string | readonly Buffer[] {
  if (state.bodyBytes !== undefined && !notes.uploads) return state.bodyBytes;
  const body = notes.uploads ? { ...(ctx.request.body as object), ...notes.uploads } : ctx.request.body;
  return JSON.stringify(journalBody(body, state.bodySize));
}

/**
 * Whether a model route took the request (each names its style first): an unknown URL, and the
 * admin API, have no `x-mock-source`, since no reply was decided.
 */
export function answeredByRoute(ctx: ShellContext): boolean {
  return !isControlPath(ctx.path) && (ctx.state as MockState).notes.style !== null;
}

/** How the reply was decided, for `--log-level debug`. */
function matchDecision(notes: Notes): string {
  const miss = notes.nearMiss;
  const reply = notes.fixture
    ? `fixture "${notes.fixture}" chosen`
    : miss
      ? `no fixture matched; closest "${miss.fixture}" (${miss.file}) failed on ${miss.failed.join(', ')}`
      : 'no fixture';
  const scenario = notes.scenario === null ? 'no scenario' : `scenario "${notes.scenario}" step ${notes.scenarioStep ?? 'past the last'}${notes.fault ? ` fired ${notes.fault}` : ''}`;
  return `  match: ${reply}; ${scenario}`;
}

function logLine(mock: Mock, level: 'info' | 'debug', ctx: ShellContext, notes: Notes, status: number, source: string, durationMs: number): void {
  const fault = notes.fault ? ` ${notes.fault}` : '';
  mock.log(level, printable(`${ctx.method} ${ctx.path} ${notes.style ?? '-'} ${notes.model ?? '-'} ${status} ${source}${fault} ${Math.round(durationMs)}ms`));
  if (notes.style !== null && mock.logs('debug')) mock.log('debug', printable(matchDecision(notes)));
}

/** `started`: `performance.now()` when the request came in. */
export function record(mock: Mock, ctx: ShellContext, started: number): void {
  const ended = performance.now();
  const state = ctx.state as MockState;
  const notes = state.notes;
  if (!notes) return;
  const status = ctx.respond === false ? ctx.res.statusCode : ctx.status;
  const source = (answeredByRoute(ctx) && sourceOf(notes, status)) || '-';
  const level = isInspectorFile(ctx.path) ? 'debug' : 'info';
  if (mock.logs(level)) logLine(mock, level, ctx, notes, status, source, ended - started);
  if (isControlPath(ctx.path) || state.unjournaled) return;
  serve(mock, {
    id: state.requestId,
    session: state.session,
    method: ctx.method,
    path: ctx.path,
    route: (ctx as { _matchedRoute?: string })._matchedRoute ?? '-',
    status,
    notes,
    startMs: started,
    endMs: ended,
    headers: ctx.headers,
    operation: state.door ? doorOperation(state.door) : '-',
    body: journalBodyJson(ctx, state, notes),
    response: state.sent ?? 'null',
    source,
    upstreamRefused: state.upstreamRefused ?? null,
  });
}
