// The features a text's vector is built from, read from its case-folded words: each word, each
// pair of neighbouring words, and each character trigram of the words joined by single spaces.
// Features are 32-bit hashes, not strings, so a 2,048-input batch allocates no feature text.

/** How much each kind of feature weighs: shared words count most, shared letters least. */
export const WEIGHTS = { word: 1, pair: 0.7, trigram: 0.25, whole: 1 } as const;

const TAGS = { word: 0x9e3779b1, pair: 0x85ebca77, trigram: 0xc2b2ae3d, whole: 0x27d4eb2f } as const;

const WORD = /[\p{L}\p{N}]+/gu;

/** FNV-1a over a range of char codes, started from a tag so kinds never share a hash. */
function fnv(text: string, start: number, end: number, tag: number): number {
  let hash = 0x811c9dc5 ^ tag;
  for (let i = start; i < end; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Mixes two hashes into one (murmur3's finalizer over their combination). */
export function mix(a: number, b: number): number {
  let h = (Math.imul(a ^ (b >>> 15), 0x2c1b3c6d) ^ b) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** `light`: a trigram, many to a text and each of little weight. */
export type FeatureVisitor = (hash: number, weight: number, light: boolean) => void;

/** Calls `visit` once per feature occurrence of `text` (a word said twice counts twice). */
export function visitFeatures(text: string, visit: FeatureVisitor): void {
  const lower = text.toLowerCase();
  const words = lower.match(WORD) ?? [];
  if (words.length === 0) {
    // Punctuation or symbols alone still mean something, and the same thing every time.
    visit(fnv(lower, 0, lower.length, TAGS.whole), WEIGHTS.whole, false);
    return;
  }
  let previous: number | undefined;
  for (const word of words) {
    const hash = fnv(word, 0, word.length, TAGS.word);
    visit(hash, WEIGHTS.word, false);
    if (previous !== undefined) visit(mix(previous ^ TAGS.pair, hash), WEIGHTS.pair, false);
    previous = hash;
  }
  const joined = ` ${words.join(' ')} `;
  for (let i = 0; i + 3 <= joined.length; i++) visit(fnv(joined, i, i + 3, TAGS.trigram), WEIGHTS.trigram, true);
}
