// `GET /__admin/requests` and `DELETE /__admin/requests`: the request journal of one session or
// of all, oldest first, filtered by exact path, style, model and status.
import { entryOf, type JournalEntry } from '../../state/journal.js';
import { clearJournal, type Session } from '../../state/session.js';
import type { Mock } from '../mock.js';
import { sessionParam, type AdminRequest } from './request.js';

const FILTERS = ['path', 'style', 'model', 'status'] as const;

/** The sessions an admin call covers: the one it names (none when unknown), else every one. */
export function chosenSessions(mock: Mock, id: string | undefined): Session[] {
  if (id === undefined) return mock.sessions.all();
  const session = mock.sessions.peek(id);
  return session ? [session] : [];
}

function journalEntries(sessions: readonly Session[], query: Record<string, unknown>): JournalEntry[] {
  const wanted = FILTERS.flatMap((key) => (typeof query[key] === 'string' ? [[key, query[key]] as const] : []));
  // Read in each session's order, as its entries were packed together, then interleaved by time;
  // the sort is stable, so each session keeps its own order.
  const entries = sessions.flatMap((session) =>
    session.journal
      .toArray()
      .filter((entry) => wanted.every(([key, value]) => String(entry[key]) === value))
      .map(entryOf),
  );
  if (sessions.length > 1) entries.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  return entries;
}

export function listRequests(mock: Mock, request: AdminRequest): unknown {
  return { requests: journalEntries(chosenSessions(mock, sessionParam(request)), request.query) };
}

export function clearRequests(mock: Mock, request: AdminRequest): unknown {
  let deleted = 0;
  for (const session of chosenSessions(mock, sessionParam(request))) {
    deleted += session.journal.length;
    clearJournal(session);
  }
  return { deleted };
}
