// A memo of bounded size for values worked out from short texts (token counts and splits, a name's
// hints), and one copy of short texts that many records keep; counted among the process's caches.
import { caches, ENTRY_BYTES, textBytes, type CacheName, type CountedCache } from './caches.js';

/**
 * Kept a generation at a time: a full memo starts again empty, and so does one that must give
 * way (it has no order of use to evict by). Evicting the oldest entry instead slows down as
 * deleted entries pile up at the head of a Map (gpt-tokenizer's cache had that), and a text of
 * words all new would evict at every word.
 */
export class Memo<V> implements CountedCache {
  private readonly map = new Map<string, V>();
  private held = 0;

  /** `valueBytes`: about what a value holds besides its slot (nothing for a number). */
  constructor(
    readonly name: CacheName,
    private readonly entries: number,
    private readonly valueBytes: (value: V) => number = () => 0,
  ) {
    caches.add(this);
  }

  get bytes(): number {
    return this.held;
  }

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  set(key: string, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.map.set(key, value);
      this.count(this.valueBytes(value) - this.valueBytes(old));
      return;
    }
    if (this.map.size >= this.entries) this.shrinkTo(0);
    this.map.set(key, value);
    this.count(ENTRY_BYTES + textBytes(key) + this.valueBytes(value));
  }

  shrinkTo(bytes: number): void {
    if (this.held <= bytes) return;
    this.map.clear();
    this.count(-this.held);
  }

  private count(delta: number): void {
    this.held += delta;
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
