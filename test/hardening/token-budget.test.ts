// Token counting stays exact where tests look (prose, code, JSON of ordinary size) while the work
// per request is bounded: texts are counted in segments cut where o200k starts a piece anyway,
// and past a request's budget the rest is estimated at the rate counted so far.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens as wholeText } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countTokens, TokenCounter } from '../../src/conversation/tokens.js';

const plain = (text: string) => wholeText(text, { disallowedSpecial: new Set() });
const root = join(import.meta.dirname, '..', '..');

describe('token counting', () => {
  it('counts long prose, Markdown, code and JSON exactly as the whole-text BPE does', () => {
    const texts = [
      readFileSync(join(root, 'README.md'), 'utf8').slice(0, 100_000),
      readFileSync(join(root, 'src', 'conversation', 'reply.ts'), 'utf8'),
      readFileSync(join(root, 'package-lock.json'), 'utf8').slice(0, 100_000),
      "It's a test: they're here, we'll see.\n\n  Indented  twice  spaced.\t".repeat(400),
      'Ünïcödé wörds, 日本語のテキスト, Привет мир! ١٢٣ ',
    ];
    for (const text of texts) expect(countTokens(text)).toBe(plain(text));
  });

  it('estimates what lies past the per-request budget at the rate counted so far', () => {
    const page = 'The quick brown fox jumps over the lazy dog. '.repeat(3000);
    const exact = plain(page);
    const huge = page.repeat(10);
    const estimate = countTokens(huge);
    expect(Math.abs(estimate - exact * 10) / (exact * 10)).toBeLessThan(0.01);
  });

  it('shares one budget among the texts of one request', () => {
    const counter = new TokenCounter();
    const text = 'word '.repeat(40_000);
    const first = counter.count(text);
    const second = counter.count(text);
    expect(first).toBe(plain(text));
    // The second text fell past the budget and was estimated, close to its true count.
    expect(Math.abs(second - first)).toBeLessThan(first * 0.01);
  });

  it('counts a million of one letter (one BPE piece, quadratic to merge whole) in bounded pieces', () => {
    // o200k spells a run of z in pairs: the true count is half the length.
    expect(countTokens('z'.repeat(1_000_000))).toBe(500_000);
  });
});
