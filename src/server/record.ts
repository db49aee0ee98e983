// After every request: one log line and, outside the admin API, one journal entry.
import type { Context } from 'koa';
import type { Mock } from '../exchange/mock.js';
import { journal } from '../state/session.js';
import type { MockState } from './state.js';

/** A journal entry keeps a body up to this size; a session keeps up to --journal-max entries. */
export const JOURNAL_BODY_MAX = 1024 * 1024;

// What an entry holds besides its body: ids, times, names and the near miss.
const ENTRY_BYTES = 512;

/** Large bodies (pictures as base64, long documents) would make a full journal hold gigabytes. */
function journalBody(body: unknown, size: number | undefined): unknown {
  if (size === undefined || size <= JOURNAL_BODY_MAX) return body ?? null;
  return `[a body of about ${size} characters, not kept: the journal keeps bodies up to ${JOURNAL_BODY_MAX}]`;
}

function entryBytes(path: string, bodySize: number | undefined): number {
  return ENTRY_BYTES + path.length + (bodySize === undefined || bodySize > JOURNAL_BODY_MAX ? 128 : bodySize);
}

export function record(mock: Mock, ctx: Context, durationMs: number): void {
  const state = ctx.state as MockState;
  const notes = state.notes;
  if (!notes) return;
  const status = ctx.respond === false ? ctx.res.statusCode : ctx.status;
  if (mock.logs('info')) {
    const used = notes.scenario ? `scenario:${notes.scenario}` : notes.fixture ? `fixture:${notes.fixture}` : '-';
    mock.log('info', `${ctx.method} ${ctx.path} ${notes.style ?? '-'} ${notes.model ?? '-'} ${status} ${used} ${durationMs.toFixed(1)}ms`);
  }
  if (ctx.path.startsWith('/__admin')) return;
  const entry = {
    id: state.requestId,
    time: new Date(mock.clock.now()).toISOString(),
    session: state.session.id,
    method: ctx.method,
    path: ctx.path,
    style: notes.style,
    model: notes.model,
    status,
    fixture: notes.fixture,
    scenario: notes.scenario,
    duration_ms: Math.round(durationMs * 10) / 10,
    body: journalBody(ctx.request.body, state.bodySize),
    near_miss: notes.nearMiss,
  };
  journal(state.session, entry, entryBytes(ctx.path, state.bodySize));
}
