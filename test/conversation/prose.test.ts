import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateProse, generateReasoning } from '../../src/conversation/prose.js';
import { seededRandom } from '../../src/conversation/random.js';
import { countTokens } from '../../src/conversation/tokens.js';

const generators = { generateProse, generateReasoning };

describe.each(Object.entries(generators))('%s', (_, generate) => {
  it('never goes over the token budget, and is never empty when the budget allows a token', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 300 }), (seed, maxTokens) => {
        const text = generate(seededRandom(seed), maxTokens);
        expect(text.length).toBeGreaterThan(0);
        expect(countTokens(text)).toBeLessThanOrEqual(maxTokens);
      }),
      { numRuns: 300 },
    );
  });

  it('gives an empty string for a budget under one token', () => {
    expect(generate(seededRandom(1), 0)).toBe('');
  });

  it('is deterministic and varies with the seed', () => {
    expect(generate(seededRandom('a'), 200)).toBe(generate(seededRandom('a'), 200));
    const texts = new Set(Array.from({ length: 10 }, (_, seed) => generate(seededRandom(seed), 200)));
    expect(texts.size).toBe(10);
  });

  it('aims between about 15 and 120 tokens when the budget is generous', () => {
    for (let seed = 0; seed < 50; seed += 1) {
      const tokens = countTokens(generate(seededRandom(seed), 4096));
      expect(tokens).toBeGreaterThanOrEqual(15);
      expect(tokens).toBeLessThanOrEqual(170);
    }
  });

  it('reads as plain English sentences', () => {
    for (let seed = 0; seed < 30; seed += 1) {
      const text = generate(seededRandom(seed), 4096);
      expect(text).toMatch(/^[A-Z"]/);
      expect(text).toMatch(/[.!?]$/);
      expect(text).toMatch(/^[\x20-\x7E\n]+$/);
      expect(text).not.toMatch(/lorem|ipsum|\{\{/i);
    }
  });
});

describe('generateProse', () => {
  it('writes one to three paragraphs', () => {
    const counts = Array.from({ length: 60 }, (_, seed) => generateProse(seededRandom(seed), 4096).split('\n\n').length);
    expect(Math.min(...counts)).toBe(1);
    expect(Math.max(...counts)).toBe(3);
  });
});

describe('generateReasoning', () => {
  it('is one first-person paragraph about the user', () => {
    for (let seed = 0; seed < 20; seed += 1) {
      const text = generateReasoning(seededRandom(seed), 4096);
      expect(text.startsWith('The user')).toBe(true);
      expect(text).not.toContain('\n');
    }
  });
});

describe('determinism by construction', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads neither Math.random nor Date.now', () => {
    const random = vi.spyOn(Math, 'random');
    const now = vi.spyOn(Date, 'now');
    generateProse(seededRandom(3), 500);
    generateReasoning(seededRandom(3), 500);
    expect(random).not.toHaveBeenCalled();
    expect(now).not.toHaveBeenCalled();
  });
});
