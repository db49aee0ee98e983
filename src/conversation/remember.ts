// A memo of bounded size for values worked out from short texts (token counts and splits, a name's
// hints), and one copy of short texts that many records keep; counted among the process's caches.
import { caches, ENTRY_BYTES, textBytes, type CacheName, type CountedCache } from './caches.js';

/**
 * Kept two generations at a time: the one filling now, and the one before it, still read. A key
 * read from the older generation moves to the newer one, so what was met lately stays whatever
 * comes between; when the newer one is full, the older one is dropped whole and the newer takes its
 * place. So a memo holds up to twice its `entries`, its bytes counted as ever. Evicting the oldest
 * entry one by one instead slows down as deleted entries pile up at the head of a Map
 * (gpt-tokenizer's cache had that), and a text of words all new would evict at every word; a memo
 * of one generation emptied itself when full, and then kept nothing of what came just before.
 */
export class Memo<V> implements CountedCache {
  private newer = new Map<string, V>();
  private older = new Map<string, V>();
  private newerBytes = 0;
  private olderBytes = 0;

  /**
   * `entries`: a generation's size, so the memo holds up to twice as many; `valueBytes`: about what
   * a value holds besides its slot (nothing for a number).
   */
  constructor(
    readonly name: CacheName,
    private readonly entries: number,
    private readonly valueBytes: (value: V) => number = () => 0,
  ) {
    caches.add(this);
  }

  get bytes(): number {
    return this.newerBytes + this.olderBytes;
  }

  get(key: string): V | undefined {
    const value = this.newer.get(key);
    if (value !== undefined || this.older.size === 0) return value;
    const old = this.older.get(key);
    if (old !== undefined) this.moveUp(key, old);
    return old;
  }

  set(key: string, value: V): void {
    const old = this.newer.get(key);
    if (old !== undefined) {
      this.newer.set(key, value);
      this.countNewer(this.valueBytes(value) - this.valueBytes(old));
      return;
    }
    const older = this.older.get(key);
    if (older !== undefined) this.dropOlder(key, older);
    this.add(key, value);
  }

  /** Drops the older generation first, then the newer one if that is not enough. */
  shrinkTo(bytes: number): void {
    if (this.bytes <= bytes) return;
    this.older = new Map();
    this.countOlder(-this.olderBytes);
    if (this.bytes <= bytes) return;
    this.newer.clear();
    this.countNewer(-this.newerBytes);
  }

  private entryBytes(key: string, value: V): number {
    return ENTRY_BYTES + textBytes(key) + this.valueBytes(value);
  }

  private moveUp(key: string, value: V): void {
    this.dropOlder(key, value);
    this.add(key, value);
  }

  private dropOlder(key: string, value: V): void {
    this.older.delete(key);
    this.countOlder(-this.entryBytes(key, value));
  }

  private add(key: string, value: V): void {
    if (this.newer.size >= this.entries) {
      this.countOlder(-this.olderBytes);
      [this.older, this.olderBytes] = [this.newer, this.newerBytes];
      this.newer = new Map();
      this.newerBytes = 0;
    }
    this.newer.set(key, value);
    this.countNewer(this.entryBytes(key, value));
  }

  private countNewer(delta: number): void {
    this.newerBytes += delta;
    caches.changed(delta);
  }

  private countOlder(delta: number): void {
    this.olderBytes += delta;
    caches.changed(delta);
  }
}

/** Longer texts (a client may send a path or a model name of any length) are not kept for sharing. */
const INTERNED_MAX_CHARS = 256;

/** The copy of `text` met lately, if any, so that records kept long share one string instead of each holding its own. */
export function interned(memo: Memo<string>, text: string): string {
  if (text.length > INTERNED_MAX_CHARS) return text;
  const known = memo.get(text);
  if (known !== undefined) return known;
  memo.set(text, text);
  return text;
}
