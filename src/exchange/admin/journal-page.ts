// The journal read a page at a time: entries are chosen by their small fields (filters, time, the
// cursor) and only the page's request bodies and responses are unpacked. Building all of them
// for every read (30,000 entries held within the memory budget) held the event loop for seconds
// and, a JSON-RPC batch of reads at once, exhausted the heap.
import { failure } from '../../conversation/errors.js';
import { entryOf, keptBytes, type JournalEntry, type KeptEntry } from '../../state/journal.js';
import type { Session } from '../../state/session.js';

export const JOURNAL_PAGE = {
  /** Entries in a page: the default and the most `limit` may ask for. */
  entries: 1000,
  /** Bytes of held entries in a page (about their JSON); a page holds at least one entry. */
  bytes: 8 * 1024 * 1024,
} as const;

const FILTERS = ['path', 'style', 'model', 'status'] as const;

export interface JournalPage {
  /** Oldest first. */
  requests: JournalEntry[];
  /** How many entries match the filters, over every page. */
  total: number;
  /** Whether entries that match lie beyond this page: older ones, or newer ones after `after`. */
  more: boolean;
}

function pageLimit(value: unknown): number {
  if (value === undefined) return JOURNAL_PAGE.entries;
  const limit = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || limit < 1 || limit > JOURNAL_PAGE.entries) {
    throw failure('invalid_value', `"limit" must be a whole number from 1 to ${JOURNAL_PAGE.entries}.`, { param: 'limit' });
  }
  return limit;
}

function position(entries: readonly KeptEntry[], id: unknown, param: 'before' | 'after'): number | undefined {
  if (id === undefined) return undefined;
  const at = typeof id === 'string' ? entries.findIndex((entry) => entry.id === id) : -1;
  if (at < 0) throw failure('invalid_value', `"${param}": no journal entry that matches the filters has the id ${JSON.stringify(id)}.`, { param });
  return at;
}

/** The matching entries of the sessions, oldest first. */
function matching(sessions: readonly Session[], query: Record<string, unknown>): KeptEntry[] {
  const wanted = FILTERS.flatMap((key) => (typeof query[key] === 'string' ? [[key, query[key]] as const] : []));
  const entries = sessions.flatMap((session) => session.journal.toArray().filter((entry) => wanted.every(([key, value]) => String(entry[key]) === value)));
  // Stable: each session keeps its own order.
  if (sessions.length > 1) entries.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  return entries;
}

/**
 * `limit` (default and most 1000), and a cursor: `before=ID` (the page before that entry; without
 * a cursor, the latest) or `after=ID` (the entries after it, for a reader that is catching up).
 */
export function journalPage(sessions: readonly Session[], query: Record<string, unknown>): JournalPage {
  const limit = pageLimit(query.limit);
  const entries = matching(sessions, query);
  const after = position(entries, query.after, 'after');
  const chosen: KeptEntry[] = [];
  let bytes = 0;
  const fits = (entry: KeptEntry) => chosen.length < limit && (chosen.length === 0 || bytes + keptBytes(entry) <= JOURNAL_PAGE.bytes);
  let more: boolean;
  if (after !== undefined) {
    let at = after + 1;
    for (; at < entries.length && fits(entries[at]!); at++) {
      chosen.push(entries[at]!);
      bytes += keptBytes(entries[at]!);
    }
    more = at < entries.length;
  } else {
    let at = (position(entries, query.before, 'before') ?? entries.length) - 1;
    for (; at >= 0 && fits(entries[at]!); at--) {
      chosen.push(entries[at]!);
      bytes += keptBytes(entries[at]!);
    }
    chosen.reverse();
    more = at >= 0;
  }
  return { requests: unpacked(sessions, chosen), total: entries.length, more };
}

/** The page's entries unpacked in each session's order, as they were packed together (a block inflates once). */
function unpacked(sessions: readonly Session[], page: readonly KeptEntry[]): JournalEntry[] {
  if (sessions.length === 1) return page.map(entryOf);
  const wanted = new Set(page);
  const shown = new Map<KeptEntry, JournalEntry>();
  for (const session of sessions) for (const entry of session.journal.toArray()) if (wanted.has(entry)) shown.set(entry, entryOf(entry));
  return page.map((entry) => shown.get(entry)!);
}

export interface FoundEntry {
  entry: JournalEntry;
  session: Session;
}

/** The entry with this id in any session (ids are unique across sessions), unpacked. */
export function findJournalEntry(sessions: readonly Session[], id: string): FoundEntry {
  for (const session of sessions) {
    const kept = session.journal.toArray().find((e) => e.id === id);
    if (kept) return { entry: entryOf(kept), session };
  }
  throw failure('request_not_found', `No journal entry has the id '${id}' in any session (GET /__admin/requests lists them).`);
}
