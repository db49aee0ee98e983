import fc from 'fast-check';
import { decode, encode, vocabularySize } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/esm/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import { countPlain, decodedPieces, decodeTokens, encodePlain, piecesOf } from '../../src/conversation/tokenizer.js';

// gpt-tokenizer is the reference: the mock's tokenizer reads its vocabulary from a table built
// from the library's ranks, and must give the library's ids for every text.
const PLAIN = { disallowedSpecial: new Set<string>() };
const reference = (text: string) => encode(text, PLAIN);
const BOM = '\ufeff';

const bytes = Buffer.from(Array.from({ length: 6000 }, (_, i) => (i * 7919 + (i >> 3)) % 256));
const corpus: Record<string, string> = {
  prose: 'The mock answers every request with a reply that looks like a real model would write it. '.repeat(50),
  contractions: "I'm sure you're right, they'LL see WE'VE won't DON'T it's",
  code: 'export function add(a: number, b: number): number {\n\treturn a + b; // sum\n}\r\n\n  const xs = [1, 2, 3].map((x) => x ** 2);\n',
  json: JSON.stringify({ id: 'chatcmpl-9', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi "there"' } }], usage: { prompt_tokens: 12 } }, null, 2),
  cjk: '日本語のテキストです。中文文本，繁體中文。한국어 텍스트입니다. ภาษาไทย',
  emoji: '🎉😀👍🏽 family 👨‍👩‍👧‍👦 flags 🇫🇷🇯🇵 ✈️ 🫠',
  accents: 'Ünïcödé çàfé naïve résumé ΑΒΓ αβγ Здравствуйте mañana e\u0301',
  base64: bytes.toString('base64'),
  hex: bytes.toString('hex').slice(0, 3000),
  numbers: '12345678901 3.14159 1,000,000 0x1F 2026-11-29T14:23:08Z',
  letterRun: 'a'.repeat(5000),
  // Pieces of every size up to past the merge's first buffers.
  runs: Array.from({ length: 40 }, (_, i) => 'ab'.repeat(i * 17) + ' ' + 'z'.repeat(i * 31)).join('\n'),
  spaceRun: ' '.repeat(3000),
  mixedSpace: 'x' + ' '.repeat(100) + 'y\n\n\n  \r\n\t\t z   \n',
  specialSpellings: '<|endoftext|> and <|im_start|>user<|im_end|> <|endofprompt|><|fim_prefix|><|im_sep|>',
  loneSurrogates: 'lone \ud800 surrogate \udfff here \udbff',
  controls: '\u0000\u0001\u007f\u0085\u00a0\u2028\u200b',
};

describe('the o200k_base tokenizer', () => {
  it.each(Object.entries(corpus))('gives gpt-tokenizer’s ids and count for %s', (_, text) => {
    const ids = reference(text);
    expect(encodePlain(text)).toEqual(ids);
    expect(countPlain(text)).toBe(ids.length);
  });

  it('gives gpt-tokenizer’s ids for any text', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({ unit: 'grapheme', maxLength: 200 }),
      fc.array(fc.constantFrom('it', "it's", ' ', '   ', '\n', '\r\n', ',', '!!', 'é', '🎉', '日本', 'Hello', '123456', '_x', '\u0301', '<|endoftext|>', 'aaaa', '=='), { maxLength: 60 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(text, (sample) => {
        fc.pre(!sample.includes(BOM));
        expect(encodePlain(sample)).toEqual(reference(sample));
      }),
      { numRuns: 400 },
    );
  });

  it('splits a text of ASCII characters only as the library’s Unicode expression does', () => {
    const split = (text: string) => [...piecesOf(text)].map(([piece]) => piece);
    const reference = (text: string) => [...text.matchAll(O200K_TOKEN_SPLIT_REGEX)].map(([piece]) => piece);
    const ascii = fc.oneof(
      fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)), maxLength: 200 }),
      fc.array(fc.constantFrom('A', 'a', 'Z', 'z', '0', '9', ' ', '  ', '\t', '\v', '\f', '\r', '\n', "'", "'S", "'ll", "'re", '/', '_', '^', '`', '~', '-'), { maxLength: 80 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(ascii, (text) => {
        expect(split(text)).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
    expect(split('naïve café 123')).toEqual(reference('naïve café 123'));
  });

  it('encodes a byte-order mark as OpenAI’s tiktoken does, where gpt-tokenizer does not', () => {
    // The library keeps token 5574 (the mark's three bytes) as bytes and finds it through a
    // decoder that drops a leading mark, so it never gives it; tiktoken's ids are these.
    expect(encodePlain(`a${BOM}b`)).toEqual([64, 5574, 65]);
    expect(encodePlain(`${BOM}Hello`)).toEqual([5574, 13225]);
    expect(reference(`a${BOM}b`)).toEqual([64, 5416, 123, 65]);
  });

  // Against the texts themselves, not the library's decode: that keeps a multi-byte character's
  // partial bytes in a decoder shared by every call, which another test file may have left there.
  it('decodes id lists back to their texts, special tokens as their spellings', () => {
    for (const text of Object.values(corpus).filter((text) => !/[\ud800-\udfff]/.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, '')))) {
      expect(decodeTokens(reference(text))).toEqual({ text });
    }
    expect(decodeTokens([13225, 199999, 200005])).toEqual({ text: 'Hello<|endoftext|><|im_sep|>' });
  });

  it('names the first id the vocabulary does not hold', () => {
    expect(decodeTokens([13225, -1, 5])).toEqual({ badAt: 1 });
    expect(decodeTokens([1.5])).toEqual({ badAt: 0 });
    expect(decodeTokens([13225, vocabularySize])).toEqual({ badAt: 1 });
    // 199998 lies between the ranks and the special tokens: no token has it.
    expect(() => decode([199998])).toThrow();
    expect(decodeTokens([1, 2, 199998])).toEqual({ badAt: 2 });
    expect(decodeTokens([])).toEqual({ text: '' });
  });

  it('holds a character split across tokens back until it is whole', () => {
    for (const text of [corpus.cjk!, corpus.emoji!, corpus.accents!, '🫠🫠🫠 ok 𝔘𝔫𝔦𝔠𝔬𝔡𝔢']) {
      const ids = reference(text);
      const pieces = [...decodedPieces(ids)];
      expect(pieces.join('')).toBe(text);
      expect(pieces.every((piece) => !piece.includes('\ufffd'))).toBe(true);
    }
    // Some character of these spans several tokens, so the pieces are fewer than the ids.
    const split = reference('🫠🫠🫠 ok 𝔘𝔫𝔦𝔠𝔬𝔡𝔢');
    expect([...decodedPieces(split)].length).toBeLessThan(split.length);
  });
});
