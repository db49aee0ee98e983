// Stream chunks of a reply's text: by token (as the o200k_base BPE splits it), by word or by
// character; joined, they give back exactly the text.
import { ENTRY_BYTES } from './caches.js';
import { Memo } from './remember.js';
import { partEnd, SEEN, SEGMENT_CHARS, segments, WORD, WORD_ENTRIES, WORD_MAX_CHARS } from './token-segments.js';
import { decodedPieces, encodePlain } from './tokenizer.js';
import type { ChunkBy } from './types.js';

// A word (letters, digits, marks, apostrophes, hyphens) or a run of other non-space characters,
// each with the whitespace before it; trailing whitespace is a chunk of its own.
const WORD_CHUNK = /\s*(?:[\p{L}\p{N}\p{M}_'’-]+|[^\s\p{L}\p{N}\p{M}_'’-]+)|\s+/gu;

/**
 * A list of chunks held: its slots and each chunk's string (its characters are the key's, counted
 * there), and each chunk's JSON, which a stream framing them keeps beside them with its UTF-8
 * bytes and where they end (server/piece-frames.ts).
 */
function chunksBytes(chunks: readonly string[]): number {
  let chars = 0;
  for (const chunk of chunks) chars += chunk.length;
  return ENTRY_BYTES + chunks.length * (32 + 40 + 6) + chars;
}

/**
 * The token splits of recent stream texts: a fixture's reply is the same text on every request,
 * and splitting 1 KB into tokens cost more than everything else of a stream but its framing.
 */
const splits = new Memo<readonly string[]>('tokens', 256, chunksBytes);
const SPLIT_MAX_CHARS = 16 * 1024;

function byTokenRemembered(text: string): readonly string[] {
  if (text.length > SPLIT_MAX_CHARS) return byToken(text);
  const known = splits.get(text);
  if (known) return known;
  // Frozen: what the stream framing takes for a split that is kept, and so worth its JSON kept too.
  const chunks = Object.freeze(byToken(text));
  splits.set(text, chunks);
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
const wordChunks = new Memo<readonly string[] | typeof SEEN>('tokens', WORD_ENTRIES, (chunks) => (chunks === SEEN ? 0 : chunksBytes(chunks)));

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
        if (word.length <= WORD_MAX_CHARS) wordChunks.set(word, SEEN);
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
  let at = 0;
  for (const piece of decodedPieces(encodePlain(text))) {
    chunks.push(text.slice(at, at + piece.length));
    at += piece.length;
  }
  return at === text.length ? chunks : undefined;
}
