// The journal read a page at a time: entries are chosen by their small fields (filters, time, the
// cursor) and only the page's request bodies and responses are unpacked. Building all of them
// for every read (30,000 entries held within the memory budget) held the event loop for seconds
// and, a JSON-RPC batch of reads at once, exhausted the heap.
import { failure } from '../../conversation/errors.js';
import { briefEntryOf, entryOf, keptBytes, type JournalEntry, type KeptEntry } from '../../state/journal.js';
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

/** An entry and where it stands: time, then session, then place in its session (the stable order). */
interface Placed {
  entry: KeptEntry;
  session: number;
  index: number;
}

function before(a: Placed, b: Placed): boolean {
  if (a.entry.time !== b.entry.time) return a.entry.time < b.entry.time;
  return a.session !== b.session ? a.session < b.session : a.index < b.index;
}

/** Each session's matching entries, in the order they were journaled. */
function matching(sessions: readonly Session[], query: Record<string, unknown>): KeptEntry[][] {
  const wanted = FILTERS.flatMap((key) => (typeof query[key] === 'string' ? [[key, query[key]] as const] : []));
  return sessions.map((session) => session.journal.toArray().filter((entry) => wanted.every(([key, value]) => String(entry[key]) === value)));
}

function cursor(lists: readonly KeptEntry[][], id: unknown, param: 'before' | 'after'): Placed | undefined {
  if (id === undefined) return undefined;
  for (let session = 0; session < lists.length && typeof id === 'string'; session++) {
    const index = lists[session]!.findIndex((entry) => entry.id === id);
    if (index >= 0) return { entry: lists[session]![index]!, session, index };
  }
  throw failure('invalid_value', `"${param}": no journal entry that matches the filters has the id ${JSON.stringify(id)}.`, { param });
}

/** A heap of each session's next entry, the nearest to the cursor on top. */
class Nearest {
  private readonly items: Placed[] = [];

  constructor(private readonly first: (a: Placed, b: Placed) => boolean) {}

  push(item: Placed): void {
    const items = this.items;
    let at = items.push(item) - 1;
    while (at > 0) {
      const up = (at - 1) >> 1;
      if (!this.first(items[at]!, items[up]!)) break;
      [items[at], items[up]] = [items[up]!, items[at]!];
      at = up;
    }
  }

  pop(): Placed | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    for (let at = 0; ; ) {
      let best = at;
      for (const child of [2 * at + 1, 2 * at + 2]) if (child < items.length && this.first(items[child]!, items[best]!)) best = child;
      if (best === at) return top;
      [items[at], items[best]] = [items[best]!, items[at]!];
      at = best;
    }
  }
}

/**
 * `limit` (default and most 1000), and a cursor: `before=ID` (the page before that entry; without
 * a cursor, the latest) or `after=ID` (the entries after it, for a reader that is catching up).
 * The sessions' lists are merged from the cursor only as far as the page goes: sorting every entry
 * of a thousand sessions for each page cost more than the page.
 */
export function journalPage(sessions: readonly Session[], query: Record<string, unknown>): JournalPage {
  const limit = pageLimit(query.limit);
  const lists = matching(sessions, query);
  const total = lists.reduce((sum, list) => sum + list.length, 0);
  const after = cursor(lists, query.after, 'after');
  const forward = after !== undefined;
  const from = forward ? after : cursor(lists, query.before, 'before');
  const step = forward ? 1 : -1;
  const onTheSide = (p: Placed) => from === undefined || (forward ? before(from, p) : before(p, from));
  const nearest = new Nearest(forward ? before : (a, b) => before(b, a));
  lists.forEach((list, session) => {
    let index = forward ? 0 : list.length - 1;
    while (list[index] !== undefined && !onTheSide({ entry: list[index]!, session, index })) index += step;
    if (list[index] !== undefined) nearest.push({ entry: list[index]!, session, index });
  });
  const chosen: KeptEntry[] = [];
  let bytes = 0;
  let more = false;
  for (let next = nearest.pop(); next !== undefined; next = nearest.pop()) {
    if (chosen.length === limit || (chosen.length > 0 && bytes + keptBytes(next.entry) > JOURNAL_PAGE.bytes)) {
      more = true;
      break;
    }
    chosen.push(next.entry);
    bytes += keptBytes(next.entry);
    const index = next.index + step;
    const entry = lists[next.session]![index];
    if (entry !== undefined) nearest.push({ entry, session: next.session, index });
  }
  if (!forward) chosen.reverse();
  return { requests: query.brief === 'true' ? chosen.map(briefEntryOf) : unpacked(sessions, chosen), total, more };
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
