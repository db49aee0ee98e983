// The o200k_base BPE (GPT-4o and later) itself, over the vocabulary read in place
// (bpe-table.ts): the same ids as gpt-tokenizer's, which the tests hold it to, and the texts of
// token ids.
import { type BpeTable, NO_TOKEN, bytesOf, rankOf, readTable, readTableAhead, tableOf } from './bpe-table.js';
import { madeAtFirstUse } from './first-use.js';

/** o200k_base's split of a text into pieces, each encoded on its own (gpt-tokenizer's, as tiktoken's). */
const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;

/** The split's expression over classes of letters, digits, upper-case-like and lower-case-like characters. */
function piecePattern(classes: { letter: string; digit: string; upper: string; lower: string }, flags: string): RegExp {
  const { letter, digit, upper, lower } = classes;
  return new RegExp(
    String.raw`[^\r\n${letter}${digit}]?[${upper}]*[${lower}]+${CONTRACTION}|[^\r\n${letter}${digit}]?[${upper}]+[${lower}]*${CONTRACTION}|[${digit}]{1,3}| ?[^\s${letter}${digit}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
    flags,
  );
}

/** The split's expression over Unicode's classes, made at the first text with a character outside ASCII. */
const piece = madeAtFirstUse(() =>
  piecePattern(
    { letter: String.raw`\p{L}`, digit: String.raw`\p{N}`, upper: String.raw`\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}`, lower: String.raw`\p{Ll}\p{Lm}\p{Lo}\p{M}` },
    'gu',
  ),
);
// The same split for a text of ASCII characters only, where those classes are A-Z, a-z and 0-9 (no
// ASCII character is a mark or another kind of letter): V8 compiles the Unicode classes at the
// first match, 9-13 ms of CPU on the first answer's path, against under 1 ms for this one, and
// making the expression (expanding each class into its ranges) took 4-8 ms of a start.
const ASCII_PIECE = piecePattern({ letter: 'A-Za-z', digit: '0-9', upper: 'A-Z', lower: 'a-z' }, 'g');
const NOT_ASCII = /[^\x00-\x7f]/;

/** The pieces of `text`, as the Unicode split splits it. */
export function piecesOf(text: string): IterableIterator<RegExpMatchArray> {
  return text.matchAll(NOT_ASCII.test(text) ? piece() : ASCII_PIECE);
}

let table: BpeTable | undefined;
/** The table file's bytes once read ahead, until the table is made of them. */
let readAhead: Uint8Array | undefined;
let readingAhead = false;

/** A file read and a few views: cheap enough to load at start, and loaded when first needed anyway. */
function vocabulary(): BpeTable {
  if (table === undefined) {
    table = readAhead === undefined ? readTable() : tableOf(readAhead);
    readAhead = undefined;
  }
  return table;
}

/** Starts reading the vocabulary off the main thread, for a later `loadTokenizer` (or first count) to find read. */
export function readTokenizerAhead(): void {
  if (table !== undefined || readingAhead) return;
  readingAhead = true;
  readTableAhead((data) => {
    // Read whole by now if it was needed before the read came back: these bytes are not kept.
    if (table === undefined) readAhead = data;
  });
}

export function loadTokenizer(): void {
  vocabulary();
}

/** A piece's UTF-8 bytes, in a buffer reused piece after piece (no array per piece). */
let scratch = new Uint8Array(1024);

function utf8(piece: string): number {
  if (piece.length * 3 > scratch.length) scratch = new Uint8Array(piece.length * 3);
  let at = 0;
  for (let i = 0; i < piece.length; i++) {
    let code = piece.charCodeAt(i);
    if (code < 0x80) {
      scratch[at++] = code;
      continue;
    }
    if (code < 0x800) {
      scratch[at++] = 0xc0 | (code >> 6);
    } else {
      if (code >= 0xd800 && code <= 0xdfff) {
        const low = piece.charCodeAt(i + 1);
        if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i++;
          scratch[at++] = 0xf0 | (code >> 18);
          scratch[at++] = 0x80 | ((code >> 12) & 0x3f);
        } else {
          // A lone surrogate is written as U+FFFD, as TextEncoder writes it.
          code = 0xfffd;
          scratch[at++] = 0xe0 | (code >> 12);
        }
      } else {
        scratch[at++] = 0xe0 | (code >> 12);
      }
      scratch[at++] = 0x80 | ((code >> 6) & 0x3f);
    }
    scratch[at++] = 0x80 | (code & 0x3f);
  }
  return at;
}

/**
 * The parts of the piece as a linked list over byte positions (`next`, `previous`; a merged-away
 * position's `next` is -1), the rank of each part joined with the next, and a heap of candidate
 * merges keyed rank then position (the lowest rank, leftmost among equals, as tiktoken merges),
 * so a long run of one letter costs n log n instead of a scan of the piece per merge.
 */
let next = new Int32Array(1024);
let previous = new Int32Array(1024);
let ranks = new Int32Array(1024);
let heap = new Float64Array(1024);
const POSITIONS = 2 ** 32;

/** The rank of the part at `i` joined with the one after it. */
function pairRank(vocab: BpeTable, i: number, length: number): number {
  const after = next[i]!;
  return after < length ? rankOf(vocab, scratch, i, next[after]!) : NO_TOKEN;
}

function push(size: number, key: number): number {
  let at = size;
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (heap[parent]! <= key) break;
    heap[at] = heap[parent]!;
    at = parent;
  }
  heap[at] = key;
  return size + 1;
}

function pop(size: number): number {
  const last = heap[size - 1]!;
  let at = 0;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= size - 1) break;
    if (child + 1 < size - 1 && heap[child + 1]! < heap[child]!) child++;
    if (heap[child]! >= last) break;
    heap[at] = heap[child]!;
    at = child;
  }
  heap[at] = last;
  return size - 1;
}

/** Sets the rank of the part at `i` and offers it to the heap. */
function rerank(vocab: BpeTable, i: number, length: number, size: number): number {
  const rank = pairRank(vocab, i, length);
  ranks[i] = rank;
  return rank === NO_TOKEN ? size : push(size, rank * POSITIONS + i);
}

/** Byte-pair merges over `scratch[0, length)`, each token given to `emit`. */
function merge(vocab: BpeTable, length: number, emit: (id: number) => void): void {
  if (length + 1 > next.length) {
    next = new Int32Array(length + 1);
    previous = new Int32Array(length + 1);
    ranks = new Int32Array(length + 1);
  }
  // Each part is offered once, and each merge offers two more.
  if (length * 3 > heap.length) heap = new Float64Array(length * 3);
  for (let i = 0; i <= length; i++) {
    next[i] = i + 1;
    previous[i] = i - 1;
  }
  let size = 0;
  for (let i = 0; i < length; i++) size = rerank(vocab, i, length, size);
  while (size > 0) {
    const key = heap[0]!;
    size = pop(size);
    const at = key % POSITIONS;
    // Stale: the part merged away, or its pair changed since this entry was offered.
    if (next[at] === -1 || ranks[at]! * POSITIONS + at !== key) continue;
    const gone = next[at]!;
    next[at] = next[gone]!;
    previous[next[at]!] = at;
    next[gone] = -1;
    size = rerank(vocab, at, length, size);
    if (at > 0) size = rerank(vocab, previous[at]!, length, size);
  }
  for (let i = 0; i < length; i = next[i]!) emit(rankOf(vocab, scratch, i, next[i]!));
}

/**
 * Pieces found whole in the vocabulary lately, by their text: prose is mostly such words, and a
 * Map finds a string faster than its bytes are hashed here. Emptied when full (an eviction order
 * kept per entry is what made gpt-tokenizer's own cache quadratic).
 */
const wholePieces = new Map<string, number>();
const WHOLE_PIECES = 16_384;

/** Every token of `text`, special-token spellings as plain characters, each given to `emit`. */
function encodeInto(text: string, emit: (id: number) => void): void {
  const vocab = vocabulary();
  // `matchAll`, though it makes a match object a piece: `match` over this pattern took ten times as long.
  for (const [piece] of piecesOf(text)) {
    const known = wholePieces.get(piece!);
    if (known !== undefined) {
      emit(known);
      continue;
    }
    const length = utf8(piece!);
    const whole = rankOf(vocab, scratch, 0, length);
    if (whole === NO_TOKEN) {
      merge(vocab, length, emit);
      continue;
    }
    if (wholePieces.size >= WHOLE_PIECES) wholePieces.clear();
    wholePieces.set(piece!, whole);
    emit(whole);
  }
}

// Text that spells a special token ("<|endoftext|>") is the user's text, not a control token: it is
// split and merged as ordinary characters (the vocabulary's hash holds no special token).

/** The tokens of `text` as the BPE counts them, special-token spellings as plain characters. */
export function countPlain(text: string): number {
  let count = 0;
  encodeInto(text, () => count++);
  return count;
}

/** The ids of `text`, special-token spellings as plain characters. */
export function encodePlain(text: string): number[] {
  const ids: number[] = [];
  encodeInto(text, (id) => ids.push(id));
  return ids;
}

/** The texts of `ids`, one a token, a multi-byte character's partial bytes held back until it completes. */
export function* decodedPieces(ids: readonly number[]): Iterable<string> {
  const vocab = vocabulary();
  const decoder = new TextDecoder();
  for (const id of ids) {
    const bytes = bytesOf(vocab, id);
    if (!bytes) continue;
    const text = decoder.decode(bytes, { stream: true });
    if (text !== '') yield text;
  }
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}

/**
 * The text of token ids (an embeddings or completions input given as ids), or the position of
 * the first id the vocabulary does not hold (out of range or a gap of it).
 */
export function decodeTokens(ids: readonly number[]): { text: string } | { badAt: number } {
  const vocab = vocabulary();
  const parts: Uint8Array[] = [];
  for (let i = 0; i < ids.length; i++) {
    const bytes = bytesOf(vocab, ids[i]!);
    if (!bytes) return { badAt: i };
    parts.push(bytes);
  }
  return { text: Buffer.concat(parts).toString('utf8') };
}
