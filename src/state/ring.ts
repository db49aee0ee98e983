// A bounded ring buffer: the journal keeps the newest entries and forgets the oldest.

/** Slots a ring starts with; it doubles up to its capacity as it fills. */
const FIRST_SLOTS = 8;

export class Ring<T> {
  // Grown on demand: a thousand sessions with a 1000-entry journal each would otherwise hold 8 MB
  // of empty slots.
  private items: (T | undefined)[];
  private start = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(Math.min(FIRST_SLOTS, this.limit));
  }

  private get limit(): number {
    return Math.max(1, this.capacity);
  }

  /** Adds at the newest end; returns the oldest item when it made room by overwriting it. */
  push(item: T): T | undefined {
    if (this.count === this.items.length && this.count < this.limit) this.grow();
    const size = this.items.length;
    if (this.count < size) {
      this.items[(this.start + this.count) % size] = item;
      this.count++;
      return undefined;
    }
    const overwritten = this.items[this.start];
    this.items[this.start] = item;
    this.start = (this.start + 1) % size;
    return overwritten;
  }

  private grow(): void {
    const items = this.toArray() as (T | undefined)[];
    items.length = Math.min(this.limit, 2 * this.items.length);
    this.items = items;
    this.start = 0;
  }

  /** Removes and returns the oldest item. */
  shift(): T | undefined {
    if (this.count === 0) return undefined;
    const oldest = this.items[this.start];
    this.items[this.start] = undefined;
    this.start = (this.start + 1) % this.items.length;
    this.count--;
    return oldest;
  }

  /** The newest `count` items (all when fewer), oldest first. */
  newest(count: number): T[] {
    const out: T[] = [];
    for (let i = Math.max(0, this.count - count); i < this.count; i++) out.push(this.items[(this.start + i) % this.items.length] as T);
    return out;
  }

  /** Oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.items[(this.start + i) % this.items.length] as T);
    return out;
  }

  clear(): void {
    this.items = new Array<T | undefined>(Math.min(FIRST_SLOTS, this.limit));
    this.start = 0;
    this.count = 0;
  }

  get length(): number {
    return this.count;
  }
}
