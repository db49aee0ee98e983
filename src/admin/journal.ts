// `GET /__admin/requests` and `DELETE /__admin/requests`: the request journal of one session or
// of all, oldest first, filtered by exact path, style, model and status.
import type { Context } from 'koa';
import type { Mock } from '../server/context.js';
import type { JournalEntry } from '../state/journal.js';
import type { Session } from '../state/session.js';
import { sessionParam } from './session-param.js';

const FILTERS = ['path', 'style', 'model', 'status'] as const;

function chosenSessions(mock: Mock, ctx: Context): Session[] {
  const id = sessionParam(ctx);
  if (id === undefined) return mock.sessions.all();
  const session = mock.sessions.peek(id);
  return session ? [session] : [];
}

function journalEntries(sessions: readonly Session[], query: Record<string, unknown>): JournalEntry[] {
  const entries = sessions.flatMap((session) => session.journal.toArray());
  // Several sessions interleave by time; the sort is stable, so each session keeps its own order.
  if (sessions.length > 1) entries.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  const wanted = FILTERS.flatMap((key) => (typeof query[key] === 'string' ? [[key, query[key]] as const] : []));
  return entries.filter((entry) => wanted.every(([key, value]) => String(entry[key]) === value));
}

export function listRequests(mock: Mock) {
  return (ctx: Context): unknown => {
    return { requests: journalEntries(chosenSessions(mock, ctx), ctx.query) };
  };
}

export function clearRequests(mock: Mock) {
  return (ctx: Context): unknown => {
    let deleted = 0;
    for (const session of chosenSessions(mock, ctx)) {
      deleted += session.journal.length;
      session.journal.clear();
    }
    return { deleted };
  };
}
