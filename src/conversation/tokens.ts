// Token counts and stream chunking, with the o200k_base BPE (GPT-4o and later), so usage figures
// and token-by-token streams look like a real model's.
import { createRequire } from 'node:module';
import { remember } from './remember.js';
import type { ChunkBy } from './types.js';

type Bpe = typeof import('gpt-tokenizer/encoding/o200k_base');

const require = createRequire(import.meta.url);
let bpe: Bpe | undefined;

/**
 * The BPE tables take longer to load than the whole rest of the server, so they are loaded when
 * first needed (or by `loadTokenizer` once the server listens), synchronously: counting is part
 * of pure functions. The CommonJS build is what a synchronous load can take.
 */
function tokenizer(): Bpe {
  if (bpe) return bpe;
  bpe = require('gpt-tokenizer/cjs/encoding/o200k_base') as Bpe;
  // The library's merge cache evicts through a Map whose head fills with deleted entries, so on
  // long runs of rare pieces (base64, minified code) counting turned quadratic: 4 MB of base64
  // took 18 s. Common words are found in the rank table directly; without the cache counting
  // costs the same.
  bpe.setMergeCacheSize(0);
  return bpe;
}

export function loadTokenizer(): void {
  tokenizer();
}

// Text that spells a special token ("<|endoftext|>") is the user's text, not a control token:
// count and split it as ordinary characters instead of throwing.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

// A word (letters, digits, marks, apostrophes, hyphens) or a run of other non-space characters,
// each with the whitespace before it; trailing whitespace is a chunk of its own.
const WORD_CHUNK = /\s*(?:[\p{L}\p{N}\p{M}_'’-]+|[^\s\p{L}\p{N}\p{M}_'’-]+)|\s+/gu;

/**
 * The characters counted exactly per request (about 32,000 tokens of prose); beyond them tokens
 * are estimated at the rate counted so far, so a 50 MB body costs as much BPE work as a 128 KB one.
 */
const EXACT_CHARS = 128 * 1024;

/** BPE merges take time quadratic in a piece's length (64 KB of one letter took 2 s): no piece is longer. */
const SEGMENT_CHARS = 512;

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
function partEnd(text: string, from: number, chars: number): number {
  const end = from + chars;
  if (end >= text.length) return text.length;
  const cut = UP_TO_LAST_PIECE_START.exec(text.slice(from, end));
  if (cut) return from + cut[0].length;
  return /[\ud800-\udbff]/.test(text[end - 1]!) && end - 1 > from ? end - 1 : end;
}

function* segments(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    const end = partEnd(text, start, SEGMENT_CHARS);
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * Characters of long pieces counted exactly per request. Where the text has no place to start a
 * piece (one character repeated, base64, letters without a space) BPE merges cost a microsecond
 * or more a character, fifty times prose: 128 KB of them held the event loop for up to 1.5 s.
 */
const LONG_PIECE_CHARS = 4 * 1024;
/** A segment at least this long, all whitespace or without any, is one long piece or a few. */
const LONG_SEGMENT = 64;

function isLongPiece(segment: string): boolean {
  return segment.length >= LONG_SEGMENT && (!/\s/.test(segment) || !/\S/.test(segment));
}

/**
 * Exact counts of recent short texts. Agent loops resend the whole conversation every turn and
 * system prompts repeat from request to request, so most texts of a request were counted before.
 */
const memo = new Map<string, number>();
const MEMO_ENTRIES = 4096;
const MEMO_MAX_CHARS = 4096;
/** Long-piece segments met lately: a run of one character is one segment over and over. */
const longMemo = new Map<string, number>();
const LONG_MEMO_ENTRIES = 256;

/**
 * Text up to a place where a piece starts anyway (see UP_TO_LAST_PIECE_START), or the rest:
 * counted alone, each gives the count of the whole.
 */
const WORD = /[^]*?[\p{L}\p{N}](?![\p{L}\p{N}\p{M}'])|[^]+/gu;
/**
 * Counts of words met lately. Texts are made of the same few thousand words (a generated JSON's
 * keys and lorem, a conversation resent each turn): most are found here instead of merged again.
 * A word met once is only marked (SEEN): it is counted with the segment's other new words in one
 * call, as a call per word would cost three times the merging of a text of words all new.
 */
const words = new Map<string, number>();
const SEEN = -1;
const WORD_ENTRIES = 16 * 1024;
const WORD_MAX_CHARS = 32;

function countWords(segment: string): number {
  let tokens = 0;
  // New words joined: each ends where a piece starts anyway, so joined they count as apart.
  let fresh = '';
  // `match` gives the words alone; `matchAll` made a match object of each (most of what counting
  // 128 KB of prose allocated).
  for (const word of segment.match(WORD) ?? []) {
    const known = word.length > WORD_MAX_CHARS ? undefined : words.get(word);
    if (known === undefined) {
      if (word.length <= WORD_MAX_CHARS) remember(words, WORD_ENTRIES, word, SEEN);
      fresh += word;
    } else if (known === SEEN) {
      const counted = countPlain(word);
      words.set(word, counted);
      tokens += counted;
    } else {
      tokens += known;
    }
  }
  return fresh === '' ? tokens : tokens + countPlain(fresh);
}

function countPlain(text: string): number {
  return tokenizer().countTokens(text, PLAIN_TEXT);
}

/** A counter for the texts of one request, exact within EXACT_CHARS characters in all. */
export class TokenCounter {
  private exactLeft = EXACT_CHARS;
  private countedChars = 0;
  private countedTokens = 0;
  private longLeft = LONG_PIECE_CHARS;
  private longChars = 0;
  private longTokens = 0;

  count(text: string): number {
    if (text === '') return 0;
    const exact = text.length <= this.exactLeft ? text : text.slice(0, this.exactLeft);
    let tokens = this.countExact(exact);
    this.exactLeft -= exact.length;
    this.countedChars += exact.length;
    this.countedTokens += tokens;
    const rest = text.length - exact.length;
    // Four characters a token is the usual rate of English, for a request whose budget went on nothing.
    if (rest > 0) tokens += Math.round(rest * (this.countedChars > 0 ? this.countedTokens / this.countedChars : 0.25));
    return tokens;
  }

  private countExact(text: string): number {
    if (text.length > MEMO_MAX_CHARS) return this.countSegments(text);
    const known = memo.get(text);
    if (known !== undefined) return known;
    const tokens = this.countSegments(text);
    remember(memo, MEMO_ENTRIES, text, tokens);
    return tokens;
  }

  private countSegments(text: string): number {
    let tokens = 0;
    for (const segment of segments(text)) tokens += isLongPiece(segment) ? this.countLongPiece(segment) : countWords(segment);
    return tokens;
  }

  /** Exact while the request's long-piece budget lasts (or the segment was met lately), then at the rate of those counted. */
  private countLongPiece(segment: string): number {
    const known = longMemo.get(segment);
    if (known !== undefined) return known;
    if (segment.length > this.longLeft) {
      return Math.round(segment.length * (this.longChars > 0 ? this.longTokens / this.longChars : 0.25));
    }
    const tokens = tokenizer().countTokens(segment, PLAIN_TEXT);
    this.longLeft -= segment.length;
    this.longChars += segment.length;
    this.longTokens += tokens;
    remember(longMemo, LONG_MEMO_ENTRIES, segment, tokens);
    return tokens;
  }

  /** A counter that goes on from where this one is, this one left as it is. */
  copy(): TokenCounter {
    const copy = new TokenCounter();
    copy.exactLeft = this.exactLeft;
    copy.countedChars = this.countedChars;
    copy.countedTokens = this.countedTokens;
    copy.longLeft = this.longLeft;
    copy.longChars = this.longChars;
    copy.longTokens = this.longTokens;
    return copy;
  }
}

export function countTokens(text: string): number {
  return new TokenCounter().count(text);
}

/**
 * The token splits of recent stream texts: a fixture's reply is the same text on every request,
 * and splitting 1 KB into tokens cost more than everything else of a stream but its framing.
 */
const splits = new Map<string, readonly string[]>();
const SPLIT_ENTRIES = 256;
const SPLIT_MAX_CHARS = 16 * 1024;

function byTokenRemembered(text: string): readonly string[] {
  if (text.length > SPLIT_MAX_CHARS) return byToken(text);
  const known = splits.get(text);
  if (known) return known;
  const chunks = byToken(text);
  remember(splits, SPLIT_ENTRIES, text, chunks);
  return chunks;
}

/** Splits `text` into stream chunks; joined, they give back exactly `text`. Shared: never changed by a caller. */
export function chunkText(text: string, by: ChunkBy): readonly string[] {
  if (text === '') return [];
  switch (by) {
    case 'token':
      return byTokenRemembered(text);
    case 'word':
      return text.match(WORD_CHUNK) ?? [text];
    case 'char':
      return Array.from(text);
  }
}

/** Characters of a reply's head split at first, per token wanted: more than most text has. */
const HEAD_CHARS_PER_TOKEN = 5;

/**
 * The first `limit` (or fewer, when the text has fewer) token chunks of `text`. Only a head is
 * split, grown by parts that end where a piece starts, so a long reply cut to its output limit (a
 * large structured output) costs the limit's tokens, not the whole text's.
 */
export function firstTokens(text: string, limit: number): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < text.length && chunks.length < limit; ) {
    const end = partEnd(text, at, Math.max(SEGMENT_CHARS, (limit - chunks.length) * HEAD_CHARS_PER_TOKEN));
    chunks.push(...chunkText(text.slice(at, end), 'token'));
    at = end;
  }
  return chunks.slice(0, Math.max(0, limit));
}

/**
 * Tokens that hold part of a multi-byte character are merged with their neighbours until the
 * chunk is whole characters: decodeGenerator holds partial bytes back until they complete.
 */
function byToken(text: string): string[] {
  // The library's decoder is shared and stateful: a caller elsewhere that decoded half a character
  // leaves bytes behind that land in our first multi-byte piece. Such a pass comes out the wrong
  // length and flushes them, so the second pass is clean.
  return splitAtTokens(text) ?? splitAtTokens(text) ?? Array.from(text);
}

/**
 * The token chunks of words met lately, as `words` keeps their counts: a long reply (a large
 * structured output) is mostly words split before, and merging each again cost 60 ms for 80 KB.
 */
const wordChunks = new Map<string, readonly string[] | typeof SEEN>();

/** The text's chunks: words split before as they were, the rest in runs of new words. */
function splitAtTokens(text: string): string[] | undefined {
  const chunks: string[] = [];
  let fresh = '';
  const flush = (): boolean => {
    const split = fresh === '' ? [] : decodedSplit(fresh);
    fresh = '';
    if (split) chunks.push(...split);
    return split !== undefined;
  };
  for (const segment of segments(text)) {
    for (const word of segment.match(WORD) ?? []) {
      let known = word.length > WORD_MAX_CHARS ? undefined : wordChunks.get(word);
      if (known === SEEN) {
        known = decodedSplit(word);
        if (known) wordChunks.set(word, known);
      }
      if (known === undefined) {
        if (word.length <= WORD_MAX_CHARS) remember(wordChunks, WORD_ENTRIES, word, SEEN);
        fresh += word;
      } else {
        if (!flush()) return undefined;
        chunks.push(...known);
      }
    }
    // A segment's new words alone: joined across segments, a run without a place to cut would be
    // one piece again.
    if (!flush()) return undefined;
  }
  return chunks;
}

/**
 * Chunks are cut from the original text by the decoded lengths, so a lone surrogate (encoded as
 * U+FFFD, also one unit long) survives as it was; undefined when the lengths do not add up.
 */
function decodedSplit(text: string): string[] | undefined {
  const chunks: string[] = [];
  const { decodeGenerator, encode } = tokenizer();
  let at = 0;
  for (const piece of decodeGenerator(encode(text, PLAIN_TEXT))) {
    chunks.push(text.slice(at, at + piece.length));
    at += piece.length;
  }
  return at === text.length ? chunks : undefined;
}

/**
 * The text of token ids (an embeddings or completions input given as ids), or the position of
 * the first id the vocabulary does not hold.
 */
export function decodeTokens(ids: readonly number[]): { text: string } | { badAt: number } {
  const { decode, vocabularySize } = tokenizer();
  const badAt = ids.findIndex((id) => !Number.isInteger(id) || id < 0 || id >= vocabularySize);
  if (badAt >= 0) return { badAt };
  try {
    return { text: decode(ids) };
  } catch {
    // Ids inside the range that name no token (gaps of the vocabulary).
    for (let i = 0; i < ids.length; i++) {
      try {
        decode([ids[i]!]);
      } catch {
        return { badAt: i };
      }
    }
    return { badAt: 0 };
  }
}
