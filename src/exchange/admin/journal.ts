// `GET /__admin/requests` and `DELETE /__admin/requests`: the request journal of one session or
// of all, oldest first, filtered by exact path, style, model and status, a page at a time
// (journal-page.ts); `GET /__admin/requests/{id}`: one entry.
import { clearJournal, type Session } from '../../state/session.js';
import type { Mock } from '../mock.js';
import { findJournalEntry, journalPage } from './journal-page.js';
import { sessionParam, type AdminRequest } from './request.js';

/** The sessions an admin call covers: the one it names (none when unknown), else every one. */
export function chosenSessions(mock: Mock, id: string | undefined): Session[] {
  if (id === undefined) return mock.sessions.all();
  const session = mock.sessions.peek(id);
  return session ? [session] : [];
}

export function listRequests(mock: Mock, request: AdminRequest): unknown {
  return journalPage(chosenSessions(mock, sessionParam(request)), request.query);
}

export function readRequest(mock: Mock, request: AdminRequest): unknown {
  return findJournalEntry(mock.sessions.all(), request.params?.id ?? '').entry;
}

export function clearRequests(mock: Mock, request: AdminRequest): unknown {
  let deleted = 0;
  for (const session of chosenSessions(mock, sessionParam(request))) {
    deleted += session.journal.length;
    clearJournal(session);
  }
  return { deleted };
}
