import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashHex, seededRandom } from '../../src/conversation/random.js';

const take = (count: number, ...parts: Array<string | number>): number[] => {
  const random = seededRandom(...parts);
  return Array.from({ length: count }, () => random.next());
};

describe('seededRandom', () => {
  it('gives the same sequence for the same parts, pinned so it holds on any machine', () => {
    expect(take(3, 'seed', 42)).toEqual([0.18792806402780116, 0.5333244658540934, 0.3509946393314749]);
    expect(take(50, 'a', 1, 'b')).toEqual(take(50, 'a', 1, 'b'));
  });

  it('gives different sequences for different parts, however they are split or typed', () => {
    const sequences = [take(4, 1), take(4, 2), take(4, '1'), take(4, 'ab', 'c'), take(4, 'a', 'bc'), take(4, '1', 2), take(4, 1, '2'), take(4)];
    expect(new Set(sequences.map((sequence) => sequence.join())).size).toBe(sequences.length);
  });

  it('next() stays in [0, 1) and looks uniform', () => {
    const values = take(20_000, 'uniform');
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
  });

  it('int() is inclusive at both ends', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 50 }), (seed, min, span) => {
        const random = seededRandom(seed);
        for (let i = 0; i < 20; i += 1) {
          const value = random.int(min, min + span);
          expect(Number.isInteger(value) && value >= min && value <= min + span).toBe(true);
        }
      }),
    );
    const random = seededRandom('ends');
    const seen = new Set(Array.from({ length: 200 }, () => random.int(1, 6)));
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(random.int(5, 5)).toBe(5);
    expect(() => random.int(3, 2)).toThrow(RangeError);
  });

  it('pick(), chance() and hex()', () => {
    const random = seededRandom('helpers');
    const items = ['a', 'b', 'c'] as const;
    expect(new Set(Array.from({ length: 100 }, () => random.pick(items))).size).toBe(3);
    expect(() => random.pick([])).toThrow(RangeError);
    expect(Array.from({ length: 100 }, () => random.chance(0)).some(Boolean)).toBe(false);
    expect(Array.from({ length: 100 }, () => random.chance(1)).every(Boolean)).toBe(true);
    expect(random.hex(32)).toMatch(/^[0-9a-f]{32}$/);
    expect(random.hex(0)).toBe('');
  });
});

describe('hashHex', () => {
  it('is a sha1 prefix of the requested length', () => {
    expect(hashHex('hello')).toBe('aaf4c61ddcc5e8a2');
    expect(hashHex('hello', 40)).toBe('aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d');
    expect(hashHex('hello', 8)).toBe('aaf4c61d');
    expect(() => hashHex('hello', 41)).toThrow(RangeError);
  });
});
