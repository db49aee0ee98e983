import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NeedleSearch } from '../../src/conversation/needles.js';

// A small alphabet makes needles overlap, nest and share suffixes, where a search goes wrong.
const piece = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '😀'), maxLength: 6 });

function bruteForce(needles: string[], text: string): number[] {
  return needles.flatMap((needle, id) => (needle !== '' && text.includes(needle) ? [id] : []));
}

describe('NeedleSearch', () => {
  it('finds the needles inside one another: he, she, hers in "ushers"', () => {
    const search = new NeedleSearch(['he', 'she', 'his', 'hers']);
    expect([...search.found('ushers')].sort()).toEqual([0, 1, 3]);
  });

  it('names every copy of a needle listed twice', () => {
    const search = new NeedleSearch(['ref-1', 'other', 'ref-1']);
    expect([...search.found('about ref-1 today')].sort()).toEqual([0, 2]);
  });

  it('finds exactly the needles that String.includes finds', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), piece, piece, (needles, before, after) => {
        const text = `${before}${needles[0] ?? ''}${after}`;
        expect([...new NeedleSearch(needles).found(text)].sort((a, b) => a - b)).toEqual(bruteForce(needles, text));
      }),
      { numRuns: 500 },
    );
  });

  it('skips the empty needle, which narrows nothing', () => {
    expect([...new NeedleSearch(['', 'x']).found('x')]).toEqual([1]);
  });
});
