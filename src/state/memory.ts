// Memory held by bytes: what each session keeps (journal, stored responses, run-time fixtures,
// pictures, video tasks, files and batches) is counted when it is kept, from sizes already known then, against a
// per-session and an overall budget. Sizes are estimates, never a serialisation of what is held.
// The process's caches count in the overall budget too, in the room the sessions leave
// (conversation/caches.ts): they give way first, so the sessions keep what they kept before.
import { caches, type CacheName } from '../conversation/caches.js';

export const MEMORY_KINDS = ['journal', 'responses', 'fixtures', 'pictures', 'tasks', 'files', 'batches'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];
/** What is counted: what sessions hold, by kind, the sessions themselves (ids and fixed state), and the total. */
export type MemoryUse = Record<MemoryKind | 'sessions' | 'total', number>;
/**
 * What health and metrics show: what the sessions hold, the caches (in all and by cache), and the
 * total of both; `speech` is the speech answers held (the speech cache's, one of the caches).
 */
export type MemoryReport = MemoryUse & { speech: number; caches: number; cached: Record<CacheName, number> };

/** Files and batches are what a client uploaded or waits for: never evicted, refused instead when they do not fit (see `state/pinned.ts`). */
export const PINNED: ReadonlySet<MemoryKind> = new Set(['files', 'batches']);

/** What of `use` is pinned. */
export const pinnedBytes = (use: MemoryUse): number => use.files + use.batches;

export const DEFAULT_MEMORY_LIMIT = 128 * 1024 * 1024;
export const DEFAULT_SESSION_MEMORY_LIMIT = 16 * 1024 * 1024;

export interface Held {
  kind: MemoryKind;
  key: string;
  bytes: number;
  /** Its place among everything the session holds, oldest lowest. */
  order: number;
}

/**
 * The journal's entries counted without an object, a map entry and a set entry each (1 % of a
 * fixture hit): the journal keeps them oldest first and never looks one up by its id, so their
 * sizes and places go in a queue of numbers, beside the running sum in `use.journal`.
 */
class EntrySizes {
  private orders: number[] = [];
  private sizes: number[] = [];
  private head = 0;

  get oldestOrder(): number | undefined {
    return this.orders[this.head];
  }

  push(order: number, bytes: number): void {
    this.orders.push(order);
    this.sizes.push(bytes);
  }

  /** The oldest's bytes, taken out. */
  shift(): number {
    const bytes = this.sizes[this.head++] ?? 0;
    // Taken-out places are dropped from the front now and then, not one at a time.
    if (this.head >= 1024 && this.head * 2 >= this.sizes.length) {
      this.orders = this.orders.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
    return bytes;
  }

  clear(): void {
    this.orders = [];
    this.sizes = [];
    this.head = 0;
  }
}

/** What `Holdings.oldest` gives for the journal's oldest entry: the journal knows which it is. */
export const OLDEST_ENTRY = 'the journal\'s oldest entry';

function emptyUse(): MemoryUse {
  return { journal: 0, responses: 0, fixtures: 0, pictures: 0, tasks: 0, files: 0, batches: 0, sessions: 0, total: 0 };
}

/** The overall budget, shared by every session of a server. `use` is the sessions' own. */
export class MemoryBudget {
  readonly use = emptyUse();
  /** Set by the sessions: evicts the oldest items of the least recently used sessions until within the limit. */
  shed: () => void = () => {};

  constructor(
    readonly limitBytes = DEFAULT_MEMORY_LIMIT,
    readonly sessionLimitBytes = DEFAULT_SESSION_MEMORY_LIMIT,
  ) {}

  /** What the sessions leave the process's caches. */
  private get roomForCaches(): number {
    return this.limitBytes - this.use.total;
  }

  change(kind: MemoryKind | 'sessions', delta: number): void {
    this.use[kind] += delta;
    this.use.total += delta;
    if (delta > 0) caches.fitIn(this.roomForCaches);
  }

  /** The caches are first held to this budget's room, as another mock may have filled them since. */
  report(): MemoryReport {
    caches.fitIn(this.roomForCaches);
    const cached = caches.use();
    return { ...this.use, speech: cached.speech, caches: caches.bytes, total: this.use.total + caches.bytes, cached };
  }
}

/** What one session holds, by kind, oldest first. */
export class Holdings {
  readonly use = emptyUse();
  /** Every item but the journal's entries, oldest first. */
  private readonly items = new Set<Held>();
  private readonly entries = new EntrySizes();
  /** The next item's place. */
  private next = 0;
  /**
   * The items by kind and key: a key as it came (an entry's id, already hashed by the map), not
   * spelled again with its kind for each look-up.
   */
  private readonly byKey = Object.fromEntries(MEMORY_KINDS.map((kind) => [kind, new Map<string, Held>()])) as Record<MemoryKind, Map<string, Held>>;

  constructor(readonly budget: MemoryBudget) {}

  add(kind: MemoryKind, key: string, bytes: number): void {
    this.remove(kind, key);
    const held = { kind, key, bytes, order: this.next++ };
    this.byKey[kind].set(key, held);
    this.items.add(held);
    this.count(kind, bytes);
  }

  remove(kind: MemoryKind, key: string): void {
    const held = this.byKey[kind].get(key);
    if (!held) return;
    this.byKey[kind].delete(key);
    this.items.delete(held);
    this.count(kind, -held.bytes);
  }

  /** A journal entry of `bytes` kept, as the newest item. */
  addEntry(bytes: number): void {
    this.entries.push(this.next++, bytes);
    this.count('journal', bytes);
  }

  /** The journal's oldest entry gone. */
  removeOldestEntry(): void {
    this.count('journal', -this.entries.shift());
  }

  /** Forgets every item of `kind` (all kinds without one), returning their bytes to the budget. */
  removeAll(kind?: MemoryKind): void {
    if (kind === undefined || kind === 'journal') {
      this.count('journal', -this.use.journal);
      this.entries.clear();
    }
    for (const held of [...this.items]) if (kind === undefined || held.kind === kind) this.remove(held.kind, held.key);
  }

  /** The oldest item that may be evicted (pinned items never are), or OLDEST_ENTRY when that is the journal's oldest. */
  oldest(): Held | typeof OLDEST_ENTRY | undefined {
    const entry = this.entries.oldestOrder;
    for (const held of this.items) {
      if (PINNED.has(held.kind)) continue;
      return entry !== undefined && entry < held.order ? OLDEST_ENTRY : held;
    }
    return entry === undefined ? undefined : OLDEST_ENTRY;
  }

  private count(kind: MemoryKind, delta: number): void {
    this.use[kind] += delta;
    this.use.total += delta;
    this.budget.change(kind, delta);
  }
}
