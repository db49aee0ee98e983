// Things made lately, by what decides their bytes: asking for the same again costs nothing, and
// the sessions that keep it (a suite's workers each asking for the same thing) share one copy.
// At most `maxItems` and `maxBytes` in all; the least recently used go first, and a thing larger
// than the budget is not remembered.

/** What is remembered: only its bytes count. */
interface Made {
  readonly data: ArrayBufferView;
}

export class RecentBytes<T extends Made> {
  private readonly items = new Map<string, T>();
  private bytes = 0;

  constructor(
    private readonly maxItems: number,
    private readonly maxBytes: number,
  ) {}

  /** The thing made for `key` before, or `make`'s, remembered. Things are never changed once made. */
  async remembered(key: string, make: () => Promise<T>): Promise<T> {
    return this.recall(key) ?? this.remember(key, await make());
  }

  /** `remembered` for a thing made at once. */
  rememberedNow(key: string, make: () => T): T {
    return this.recall(key) ?? this.remember(key, make());
  }

  private recall(key: string): T | undefined {
    const known = this.items.get(key);
    if (known) {
      // Map order is the order of use: the oldest goes first.
      this.items.delete(key);
      this.items.set(key, known);
    }
    return known;
  }

  private remember(key: string, made: T): T {
    const size = made.data.byteLength;
    if (size > this.maxBytes || this.items.has(key)) return made;
    this.items.set(key, made);
    this.bytes += size;
    for (const [oldKey, old] of this.items) {
      if (this.items.size <= this.maxItems && this.bytes <= this.maxBytes) break;
      this.items.delete(oldKey);
      this.bytes -= old.data.byteLength;
    }
    return made;
  }
}
