// The o200k_base BPE (GPT-4o and later) itself: loaded once, when first needed, and the texts of
// token ids.
import { createRequire } from 'node:module';

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

/** The tokens of `text` as the BPE counts them, special-token spellings as plain characters. */
export function countPlain(text: string): number {
  return tokenizer().countTokens(text, PLAIN_TEXT);
}

/** The ids of `text`, special-token spellings as plain characters. */
export function encodePlain(text: string): number[] {
  return tokenizer().encode(text, PLAIN_TEXT);
}

/** The texts of `ids`, one a token, a multi-byte character's partial bytes held back until it completes. */
export function decodedPieces(ids: readonly number[]): Iterable<string> {
  return tokenizer().decodeGenerator(ids);
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
