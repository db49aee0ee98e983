// When a changed file may be read: once its stamp (or its absence) has stayed the same for the
// settle time, by the server's own clock, judged per file. Watcher events only make the store look
// again; they never postpone a file that has settled. A writer that leaves a file torn for less than
// the settle time is never read half-way: the two looks that agree are at least that far apart.

/** How long a changed file must keep its stamp before it is read (SPEC 11, docs/fixtures.md). */
export const SETTLE_MS = 200;

/** The stamp of a file that is not there (any more). */
export const GONE = 'gone';

export class Settling {
  /** Changed files not read yet, by kind and path: the stamp last seen and when it was first seen. */
  private readonly pending = new Map<string, { stamp: string; since: number }>();
  /** Files the mock wrote whole itself: read at once, whatever their stamp. */
  private readonly trusted = new Set<string>();
  private touched = new Set<string>();

  constructor(
    readonly now: () => number,
    private readonly settleMs = SETTLE_MS,
  ) {}

  /** The mock itself wrote (or removed) `file` (an absolute path) whole: the next look takes it as it is. */
  trust(file: string): void {
    this.trusted.add(file);
  }

  /**
   * Whether `file`, found at `stamp` by a look that began at `lookedAt` (before its stat), may be
   * read now. A stamp seen for the first time starts its wait, timed from after the stat, so the
   * two stats that agree are at least the settle time apart.
   */
  mayRead(key: string, file: string, stamp: string, lookedAt: number): boolean {
    this.touched.add(key);
    if (this.trusted.has(file)) return this.settled(key);
    const known = this.pending.get(key);
    if (known?.stamp !== stamp) {
      this.pending.set(key, { stamp, since: this.now() });
      return false;
    }
    return lookedAt - known.since >= this.settleMs ? this.settled(key) : false;
  }

  /** The file changed after it settled, as it was read: it waits again from the next look. */
  restart(key: string): void {
    this.pending.set(key, { stamp: '', since: this.now() });
  }

  /** The file is as it was last read: nothing is pending for it. */
  unchanged(key: string): void {
    this.touched.add(key);
    this.pending.delete(key);
  }

  private settled(key: string): true {
    this.pending.delete(key);
    return true;
  }

  /** Ends a look: files it did not meet (gone before they settled) are forgotten, trusted writes taken. */
  endLook(): void {
    for (const key of this.pending.keys()) if (!this.touched.has(key)) this.pending.delete(key);
    this.touched = new Set();
    this.trusted.clear();
  }

  /** How long until the earliest pending file may have settled; undefined when none is pending. */
  nextLookIn(): number | undefined {
    let earliest: number | undefined;
    for (const { since } of this.pending.values()) earliest = Math.min(earliest ?? Infinity, since + this.settleMs);
    return earliest === undefined ? undefined : Math.max(0, earliest - this.now()) + 1;
  }
}
