// Where a text may be cut so that its parts split into the tokens the whole would: the segments
// that counting and splitting work on, and the words inside them that their memos keep.

/** BPE merges take time quadratic in a piece's length (64 KB of one letter took 2 s): no piece is longer. */
export const SEGMENT_CHARS = 512;

/**
 * The window up to its last place where a new o200k piece starts anyway: after a letter or digit,
 * anything but a letter, digit, mark or apostrophe (`it's` is one piece). Cutting there changes no
 * count. Not after a mark: one that follows punctuation is part of the punctuation's piece, which
 * may go on (`!!\u0301_x` is `!!\u0301_`, `x`). Greedy, so the engine finds the last such place
 * in one backward pass; a window without one (a run of letters) costs one scan, not a test a
 * character.
 */
const UP_TO_LAST_PIECE_START = /^[^]*[\p{L}\p{N}](?=[^\p{L}\p{N}\p{M}'])/u;

/**
 * Where a part of `text` from `from`, at most `chars` long, should end: at its last piece start,
 * so that the parts split into the tokens the whole would. Only a run without such a place (one
 * letter repeated, base64) is cut inside, never inside a character.
 */
export function partEnd(text: string, from: number, chars: number): number {
  const end = from + chars;
  if (end >= text.length) return text.length;
  const cut = UP_TO_LAST_PIECE_START.exec(text.slice(from, end));
  if (cut) return from + cut[0].length;
  return /[\ud800-\udbff]/.test(text[end - 1]!) && end - 1 > from ? end - 1 : end;
}

export function* segments(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    const end = partEnd(text, start, SEGMENT_CHARS);
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * Text up to a place where a piece starts anyway (see UP_TO_LAST_PIECE_START), or the rest:
 * counted alone, each gives the count of the whole.
 */
export const WORD = /[^]*?[\p{L}\p{N}](?![\p{L}\p{N}\p{M}'])|[^]+/gu;
/** How many words a memo of words keeps a generation (remember.ts: the one before is still read). */
export const WORD_ENTRIES = 16 * 1024;
/** Words this long or shorter are kept in the memos of words; longer ones are worked out each time. */
export const WORD_MAX_CHARS = 32;
/** A word's mark in a memo of words when it was met once: worked out on its second meeting. */
export const SEEN = -1;
