// A memo of bounded size for values worked out from short texts (token counts and splits, a name's
// hints), and one copy of short texts that many records keep.

/**
 * Kept a generation at a time: a full map starts again empty. Evicting the oldest entry instead
 * slows down as deleted entries pile up at the head of a Map (gpt-tokenizer's cache had that), and
 * a text of words all new would evict at every word.
 */
export function remember<V>(map: Map<string, V>, entries: number, key: string, value: V): void {
  if (map.size >= entries) map.clear();
  map.set(key, value);
}

/** Longer texts (a client may send a path or a model name of any length) are not kept for sharing. */
const INTERNED_MAX_CHARS = 256;

/** The copy of `text` met lately, if any, so that records kept long share one string instead of each holding its own. */
export function interned(map: Map<string, string>, entries: number, text: string): string {
  if (text.length > INTERNED_MAX_CHARS) return text;
  const known = map.get(text);
  if (known !== undefined) return known;
  remember(map, entries, text, text);
  return text;
}
