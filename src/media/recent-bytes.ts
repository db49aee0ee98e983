// Things made lately, by what decides their bytes: asking for the same again costs nothing, and
// the sessions that keep it (a suite's workers each asking for the same thing) share one copy.
// At most `maxItems` and `maxBytes` in all, and within the room a memory budget leaves the
// process's caches (conversation/caches.ts); the least recently used go first, and a thing larger
// than `maxBytes` is not remembered.
import { caches, ENTRY_BYTES, textBytes, type CacheName, type CountedCache } from '../conversation/caches.js';

/** What is remembered: its bytes are most of what it costs. */
interface Made {
  readonly data: ArrayBufferView;
}

/** What a thing costs held: its bytes, its key, and its slot and object. */
const sizeOf = (key: string, made: Made): number => made.data.byteLength + textBytes(key) + 2 * ENTRY_BYTES;

export class RecentBytes<T extends Made> implements CountedCache {
  private readonly items = new Map<string, T>();
  private held = 0;

  constructor(
    readonly name: CacheName,
    private readonly maxItems: number,
    private readonly maxBytes: number,
  ) {
    caches.add(this);
  }

  get bytes(): number {
    return this.held;
  }

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
    const size = sizeOf(key, made);
    if (size > this.maxBytes || this.items.has(key)) return made;
    const before = this.held;
    this.items.set(key, made);
    this.held += size;
    this.evictUntil(() => this.items.size <= this.maxItems && this.held <= this.maxBytes);
    caches.changed(this.held - before);
    return made;
  }

  shrinkTo(bytes: number): void {
    const before = this.held;
    this.evictUntil(() => this.held <= bytes);
    caches.changed(this.held - before);
  }

  /** Evicts the least recently used until `fits`. */
  private evictUntil(fits: () => boolean): void {
    for (const [oldKey, old] of this.items) {
      if (fits()) return;
      this.items.delete(oldKey);
      this.held -= sizeOf(oldKey, old);
    }
  }
}
