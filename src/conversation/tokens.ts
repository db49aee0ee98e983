// Token counts and stream chunking, with the o200k_base BPE (GPT-4o and later), so usage figures
// and token-by-token streams look like a real model's.
import { countTokens as countBpe, decodeGenerator, encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChunkBy } from './types.js';

// Text that spells a special token ("<|endoftext|>") is the user's text, not a control token:
// count and split it as ordinary characters instead of throwing.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

// A word (letters, digits, marks, apostrophes, hyphens) or a run of other non-space characters,
// each with the whitespace before it; trailing whitespace is a chunk of its own.
const WORD_CHUNK = /\s*(?:[\p{L}\p{N}\p{M}_'’-]+|[^\s\p{L}\p{N}\p{M}_'’-]+)|\s+/gu;

export function countTokens(text: string): number {
  return text === '' ? 0 : countBpe(text, PLAIN_TEXT);
}

/** Splits `text` into stream chunks; joined, they give back exactly `text`. */
export function chunkText(text: string, by: ChunkBy): string[] {
  if (text === '') return [];
  switch (by) {
    case 'token':
      return byToken(text);
    case 'word':
      return text.match(WORD_CHUNK) ?? [text];
    case 'char':
      return Array.from(text);
  }
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
 * Chunks are cut from the original text by the decoded lengths, so a lone surrogate (encoded as
 * U+FFFD, also one unit long) survives as it was; undefined when the lengths do not add up.
 */
function splitAtTokens(text: string): string[] | undefined {
  const chunks: string[] = [];
  let at = 0;
  for (const piece of decodeGenerator(encode(text, PLAIN_TEXT))) {
    chunks.push(text.slice(at, at + piece.length));
    at += piece.length;
  }
  return at === text.length ? chunks : undefined;
}
