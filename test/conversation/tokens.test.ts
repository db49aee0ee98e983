import fc from 'fast-check';
import { decode, decodeGenerator, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { chunkText, firstTokens } from '../../src/conversation/token-chunks.js';
import { countTokens } from '../../src/conversation/tokens.js';

// Lone surrogates too: a JS string can hold them, and the tokenizer turns them into U+FFFD.
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));
const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: fc.oneof(loneSurrogate, fc.constantFrom('a', ' ', 'é', '🎉', '日')) }),
);

const mixedWords = fc.constantFrom('it', "it's", "dogs'", ' ', '  ', '\n', ',', '!!', 'é', '🎉', '日本', 'Hello', 'world', '123456', '_x', 'a-b', '\u0301');
const wordText = (maxLength: number) => fc.array(mixedWords, { maxLength }).map((parts) => parts.join(''));

/** The library's own split of the whole text, each chunk whole characters. */
function librarySplit(text: string): string[] {
  const chunks: string[] = [];
  let at = 0;
  for (const piece of decodeGenerator(encode(text, { disallowedSpecial: new Set() }))) {
    chunks.push(text.slice(at, at + piece.length));
    at += piece.length;
  }
  return chunks;
}

describe('countTokens', () => {
  it('counts with o200k_base', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('Hello world')).toBe(2);
    expect(countTokens('Hello world')).toBe(encode('Hello world').length);
    // tiktoken's count: the byte-order mark is one token of the vocabulary (gpt-tokenizer gives two).
    expect(countTokens('a\ufeffb')).toBe(3);
  });

  it("counts any text as o200k_base does, the first time its words are met, the second and after", () => {
    const text = fc.oneof(anyText, wordText(40));
    fc.assert(
      fc.property(text, (sample) => {
        // gpt-tokenizer never gives the byte-order mark's token (tokenizer.test.ts holds it to tiktoken's).
        fc.pre(!sample.includes('\ufeff'));
        const exact = encode(sample, { disallowedSpecial: new Set() }).length;
        for (let time = 0; time < 3; time++) expect(countTokens(sample)).toBe(exact);
      }),
      { numRuns: 1000, examples: [['!!\u0301_x']] },
    );
  });

  it("counts an agent's long prompt as o200k_base does each time it comes (the later times from memory)", () => {
    const prompt = 'Read a file before you edit it; keep changes small and tested. '.repeat(1600);
    const exact = encode(prompt).length;
    for (let time = 0; time < 3; time++) expect(countTokens(prompt)).toBe(exact);
  });

  it('tells apart long prompts of one length that differ in one place (the date in a system prompt)', () => {
    const prompt = (date: string) => `${'Read a file before you edit it; keep changes small and tested. '.repeat(800)}Today is ${date}. ${'Prefer the file tools. '.repeat(800)}`;
    // The same length: only a comparison of the whole text tells them apart.
    const [first, second] = [prompt('2026-11-29'), prompt('a long day')];
    expect(first.length).toBe(second.length);
    const [firstExact, secondExact] = [encode(first).length, encode(second).length];
    expect(firstExact).not.toBe(secondExact);
    for (let time = 0; time < 3; time++) expect([countTokens(first), countTokens(second)]).toEqual([firstExact, secondExact]);
  });

  it('counts text that spells a special token as plain text instead of throwing', () => {
    expect(countTokens('say <|endoftext|> now')).toBeGreaterThan(3);
  });
});

describe('chunkText', () => {
  it('gives back exactly the text when joined, for every mode', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom('token', 'word', 'char' as const), (text, by) => {
        expect(chunkText(text, by).join('')).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('never cuts a character in two when chunking by token', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const chunks = chunkText(text, 'token');
        if (!text.includes('\uFFFD')) expect(chunks.some((chunk) => chunk.includes('\uFFFD'))).toBe(false);
        expect(chunks.every((chunk) => chunk.length > 0)).toBe(true);
      }),
      { numRuns: 500 },
    );
    const emoji = chunkText('Party 🎉👨‍👩‍👧 日本語のテキスト', 'token');
    expect(emoji).toContain('🎉');
    expect(emoji.join('')).toBe('Party 🎉👨‍👩‍👧 日本語のテキスト');
  });

  it('gives one chunk per token for plain text', () => {
    const text = 'The quick brown fox jumps over the lazy dog, twice.';
    expect(chunkText(text, 'token')).toHaveLength(countTokens(text));
    expect(chunkText('Hello world!', 'token')).toEqual(['Hello', ' world', '!']);
  });

  it('splits as o200k_base does, words met before or not, across its 512-character parts', () => {
    // Texts that share words, so later ones are split partly from the words remembered.
    fc.assert(
      fc.property(fc.array(fc.oneof(wordText(40), wordText(600)), { minLength: 2, maxLength: 4 }), (texts) => {
        for (const text of texts) expect(chunkText(text, 'token')).toEqual(librarySplit(text));
      }),
      { numRuns: 300, examples: [[['!!\u0301_x', 'Hello world, Hello world!']]] },
    );
  });

  it('keeps a lone surrogate and special-token text intact', () => {
    expect(chunkText('a\uD800b', 'token').join('')).toBe('a\uD800b');
    expect(chunkText('x<|endoftext|>y', 'token').join('')).toBe('x<|endoftext|>y');
  });

  it('is not thrown off by half a character left in the library decoder elsewhere', () => {
    const [firstHalf] = encode('🎉');
    const text = 'Hi 🎉 there 👨‍👩‍👧';
    const clean = chunkText(text, 'token');
    decode([firstHalf as number]); // leaves the emoji's first bytes in the shared decoder
    expect(chunkText(text, 'token')).toEqual(clean);
    expect(clean.join('')).toBe(text);
  });

  it('splits words with their leading whitespace, punctuation apart', () => {
    expect(chunkText('Hello world!', 'word')).toEqual(['Hello', ' world', '!']);
    expect(chunkText("  It's fine.\n", 'word')).toEqual(['  It\'s', ' fine', '.', '\n']);
  });

  it('splits by code point, not UTF-16 unit', () => {
    expect(chunkText('a🎉b', 'char')).toEqual(['a', '🎉', 'b']);
  });

  it('gives no chunks for empty text', () => {
    expect(chunkText('', 'token')).toEqual([]);
    expect(chunkText('', 'word')).toEqual([]);
    expect(chunkText('', 'char')).toEqual([]);
  });
});

describe('firstTokens', () => {
  it("is the head of the text's token chunks, whatever the limit", () => {
    fc.assert(
      fc.property(wordText(800), fc.integer({ min: 0, max: 400 }), (text, limit) => {
        expect(firstTokens(text, limit)).toEqual(chunkText(text, 'token').slice(0, limit));
      }),
      { numRuns: 300 },
    );
  });

  it('gives as many chunks as asked of a run without a place to cut, in whole characters', () => {
    for (const run of ['a'.repeat(50_000), '🎉'.repeat(20_000)]) {
      const head = firstTokens(run, 1000);
      expect(head).toHaveLength(1000);
      expect(run.startsWith(head.join(''))).toBe(true);
      expect(head.join('')).not.toContain('\uFFFD');
    }
  });
});
