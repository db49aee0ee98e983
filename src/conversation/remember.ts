// A memo of bounded size for values worked out from short texts (token counts and splits, a name's hints).

/**
 * Kept a generation at a time: a full map starts again empty. Evicting the oldest entry instead
 * slows down as deleted entries pile up at the head of a Map (gpt-tokenizer's cache had that), and
 * a text of words all new would evict at every word.
 */
export function remember<V>(map: Map<string, V>, entries: number, key: string, value: V): void {
  if (map.size >= entries) map.clear();
  map.set(key, value);
}
