// Token counts with the o200k_base BPE (GPT-4o and later), so usage figures look like a real
// model's, linear in the text whatever the text.
import { textBytes } from './caches.js';
import { Memo } from './remember.js';
import { finished, type Steps } from './steps.js';
import { SEEN, WORD, WORD_ENTRIES, WORD_MAX_CHARS, segments } from './token-segments.js';
import { countPlain } from './tokenizer.js';

/**
 * The characters counted exactly per request (about 32,000 tokens of prose); beyond them tokens
 * are estimated at the rate counted so far, so a 50 MB body costs as much BPE work as a 128 KB one.
 */
const EXACT_CHARS = 128 * 1024;

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
const memo = new Memo<number>('tokens', 4096);
const MEMO_MAX_CHARS = 4096;
/** A long text counted lately, kept to be compared whole with the text a key finds. */
interface CountedText {
  readonly text: string;
  readonly tokens: number;
}

/** Texts that share a key are kept side by side, up to this many (the latest first). */
const SHARED_KEY_TEXTS = 4;
/** Characters sampled through a long text for its key. */
const KEY_SAMPLES = 256;

/**
 * A long text's key: its length and characters taken at even steps through it. An agent's 100 KB
 * system prompt, resent every request, then costs this and one comparison of the whole text with
 * the one kept (a few microseconds), where a digest of it cost 100-160 µs.
 */
function sampledKey(text: string): string {
  const step = text.length / KEY_SAMPLES;
  const codes = new Array<number>(KEY_SAMPLES);
  for (let i = 0; i < KEY_SAMPLES; i++) codes[i] = text.charCodeAt(Math.floor(i * step));
  return `${text.length}:${String.fromCharCode(...codes)}${text.slice(-64)}`;
}

/** Counts of long texts met lately, by their sampled key. */
const longTexts = new Memo<readonly CountedText[]>('tokens', 64, (texts) => texts.reduce((bytes, { text }) => bytes + textBytes(text), 0));
/** Long-piece segments met lately: a run of one character is one segment over and over. */
const longMemo = new Memo<number>('tokens', 256);

/**
 * Counts of words met lately. Texts are made of the same few thousand words (a generated JSON's
 * keys and lorem, a conversation resent each turn): most are found here instead of merged again.
 * A word met once is only marked (SEEN): it is counted with the segment's other new words in one
 * call, as a call per word would cost three times the merging of a text of words all new.
 */
const words = new Memo<number>('tokens', WORD_ENTRIES);

function countWords(segment: string): number {
  let tokens = 0;
  // New words joined: each ends where a piece starts anyway, so joined they count as apart.
  let fresh = '';
  // `match` gives the words alone; `matchAll` made a match object of each (most of what counting
  // 128 KB of prose allocated).
  for (const word of segment.match(WORD) ?? []) {
    const known = word.length > WORD_MAX_CHARS ? undefined : words.get(word);
    if (known === undefined) {
      if (word.length <= WORD_MAX_CHARS) words.set(word, SEEN);
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

/**
 * A counter for the texts of one request, exact within EXACT_CHARS characters in all. A long text
 * is counted a segment a step (`countSteps`), so whoever counts a large request can give the event
 * loop back between them: 128 KB of new text held it for 50 ms under load.
 */
export class TokenCounter {
  private exactLeft = EXACT_CHARS;
  private countedChars = 0;
  private countedTokens = 0;
  private longLeft = LONG_PIECE_CHARS;
  private longChars = 0;
  private longTokens = 0;
  /** Long pieces this counter met: a text with none counts the same in any request. */
  private longPieces = 0;

  count(text: string): number {
    // Most texts are short: counted without a generator (200,000 moderation inputs are one request).
    if (text.length > MEMO_MAX_CHARS) return finished(this.countSteps(text));
    if (text === '') return 0;
    const exact = this.exactPart(text);
    return this.counted(text, exact, this.countShort(exact));
  }

  *countSteps(text: string): Steps<number> {
    if (text === '') return 0;
    const exact = this.exactPart(text);
    return this.counted(text, exact, exact.length > MEMO_MAX_CHARS ? yield* this.longTextSteps(exact) : this.countShort(exact));
  }

  /** The part of `text` this request's budget counts exactly. */
  private exactPart(text: string): string {
    return text.length <= this.exactLeft ? text : text.slice(0, this.exactLeft);
  }

  /** `text`'s tokens once its exact part counted `tokens`: the rest at the rate counted so far. */
  private counted(text: string, exact: string, tokens: number): number {
    this.exactLeft -= exact.length;
    this.countedChars += exact.length;
    this.countedTokens += tokens;
    const rest = text.length - exact.length;
    // Four characters a token is the usual rate of English, for a request whose budget went on nothing.
    return rest > 0 ? tokens + Math.round(rest * (this.countedChars > 0 ? this.countedTokens / this.countedChars : 0.25)) : tokens;
  }

  private countShort(text: string): number {
    const known = memo.get(text);
    if (known !== undefined) return known;
    const tokens = finished(this.segmentSteps(text));
    memo.set(text, tokens);
    return tokens;
  }

  /** Kept only when the text has no long piece, whose count depends on the request's budget for them. */
  private *longTextSteps(text: string): Steps<number> {
    const key = sampledKey(text);
    const alike = longTexts.get(key) ?? [];
    const known = alike.find((counted) => counted.text === text);
    if (known !== undefined) return known.tokens;
    const before = this.longPieces;
    const tokens = yield* this.segmentSteps(text);
    if (this.longPieces === before) longTexts.set(key, [{ text, tokens }, ...alike.slice(0, SHARED_KEY_TEXTS - 1)]);
    return tokens;
  }

  private *segmentSteps(text: string): Steps<number> {
    let tokens = 0;
    for (const segment of segments(text)) {
      tokens += isLongPiece(segment) ? this.countLongPiece(segment) : countWords(segment);
      yield;
    }
    return tokens;
  }

  /** Exact while the request's long-piece budget lasts (or the segment was met lately), then at the rate of those counted. */
  private countLongPiece(segment: string): number {
    this.longPieces++;
    const known = longMemo.get(segment);
    if (known !== undefined) return known;
    if (segment.length > this.longLeft) {
      return Math.round(segment.length * (this.longChars > 0 ? this.longTokens / this.longChars : 0.25));
    }
    const tokens = countPlain(segment);
    this.longLeft -= segment.length;
    this.longChars += segment.length;
    this.longTokens += tokens;
    longMemo.set(segment, tokens);
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
 * The tokens of a request's texts together, with one counter: however many texts (2,048
 * embedding inputs, 200,000 moderation inputs), the BPE work is one request's.
 */
export function countAllTokens(texts: Iterable<string>): number {
  const counter = new TokenCounter();
  let total = 0;
  for (const text of texts) total += counter.count(text);
  return total;
}
