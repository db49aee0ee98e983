// The features a text's vector is built from, read from its case-folded words (runs of letters and
// digits in any script): each word, each pair of neighbouring words, and each character trigram of
// the words joined by single spaces. Features are 32-bit hashes, not strings: one pass over the
// char codes finds the words and hashes words and trigrams as it goes, so a 2,048-input batch
// builds no word, joined text or trigram string.
import type { FeatureBag } from './bag.js';

/** How much each kind of feature weighs: shared words count most, shared letters least. */
export const WEIGHTS = { word: 1, pair: 0.7, trigram: 0.25, whole: 1 } as const;

const TAGS = { word: 0x9e3779b1, pair: 0x85ebca77, trigram: 0xc2b2ae3d, whole: 0x27d4eb2f } as const;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const SPACE = 0x20;

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** Whether each UTF-16 unit below 0x10000 is a letter or digit: 0 not asked yet, 1 yes, 2 no. */
const KIND = new Uint8Array(0x10000);
for (let code = 0; code < 0x80; code++) KIND[code] = LETTER_OR_DIGIT.test(String.fromCharCode(code)) ? 1 : 2;

function isWordUnit(code: number): boolean {
  let kind = KIND[code]!;
  if (kind === 0) KIND[code] = kind = LETTER_OR_DIGIT.test(String.fromCharCode(code)) ? 1 : 2;
  return kind === 1;
}

/** The UTF-16 units of the letter or digit at `at` (2 for one beyond the BMP), or 0. */
function wordUnitsAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code >= 0xd800 && code < 0xdc00) {
    const low = text.charCodeAt(at + 1);
    if (low >= 0xdc00 && low < 0xe000) return LETTER_OR_DIGIT.test(String.fromCodePoint(text.codePointAt(at)!)) ? 2 : 0;
  }
  return isWordUnit(code) ? 1 : 0;
}

/** FNV-1a over a range of char codes, started from a tag so kinds never share a hash. */
function fnv(text: string, start: number, end: number, tag: number): number {
  let hash = FNV_OFFSET ^ tag;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash >>> 0;
}

/** The FNV-1a hash of a trigram, as `fnv` would give it over the same three units. */
function trigramHash(a: number, b: number, c: number): number {
  const hash = Math.imul(Math.imul(Math.imul((FNV_OFFSET ^ TAGS.trigram) ^ a, FNV_PRIME) ^ b, FNV_PRIME) ^ c, FNV_PRIME);
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

/**
 * Puts the features of `text` in `bag`. A word said twice counts twice; pairs are neighbouring
 * words; trigrams run over ` w1 w2 … wn `, the words joined by spaces.
 */
export function readFeatures(text: string, bag: FeatureBag): void {
  const lower = text.toLowerCase();
  // At most one word and one pair per two units (a word and its separator), a trigram per unit and two more.
  bag.clear(2 * lower.length + 3);
  let previous = -1;
  // The joined text as a stream of units: the two before the next (-1: none yet).
  let before = -1;
  let last = SPACE;
  for (let at = 0; at < lower.length; ) {
    let units = wordUnitsAt(lower, at);
    if (units === 0) {
      at++;
      continue;
    }
    if (previous >= 0) {
      bag.add(trigramHash(before, last, SPACE), WEIGHTS.trigram, true);
      before = last;
      last = SPACE;
    }
    let hash = FNV_OFFSET ^ TAGS.word;
    do {
      for (const end = at + units; at < end; at++) {
        const unit = lower.charCodeAt(at);
        hash = Math.imul(hash ^ unit, FNV_PRIME);
        if (before >= 0) bag.add(trigramHash(before, last, unit), WEIGHTS.trigram, true);
        before = last;
        last = unit;
      }
      units = at < lower.length ? wordUnitsAt(lower, at) : 0;
    } while (units > 0);
    hash >>>= 0;
    bag.add(hash, WEIGHTS.word, false);
    if (previous >= 0) bag.add(mix(previous ^ TAGS.pair, hash), WEIGHTS.pair, false);
    previous = hash;
  }
  if (previous >= 0) bag.add(trigramHash(before, last, SPACE), WEIGHTS.trigram, true);
  // Punctuation or symbols alone still mean something, and the same thing every time.
  else bag.add(fnv(lower, 0, lower.length, TAGS.whole), WEIGHTS.whole, false);
}
