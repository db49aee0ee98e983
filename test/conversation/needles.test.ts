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

  it('finds needles that begin past ASCII, at the edge of the root table, or share a node with many others', () => {
    // The root keeps its ASCII children in a table and looks the others up among its sorted
    // children; a node of many children is searched by halves.
    const many = Array.from({ length: 300 }, (_, i) => `x${String.fromCharCode(0x20 + i)}`);
    const needles = ['\u007f!', '\u0080!', 'über', 'Ärger', '日本', '😀 ok', '\uffff', ...many];
    const text = `a \u007f! b \u0080! c über, Ärger 日本 😀 ok \uffff ${many[0]} ${many[150]} ${many[299]}`;
    expect([...new NeedleSearch(needles).found(text)].sort((a, b) => a - b)).toEqual(bruteForce(needles, text));
    expect(bruteForce(needles, text)).toHaveLength(10);
  });

  it('skips the empty needle, which narrows nothing', () => {
    expect([...new NeedleSearch(['', 'x']).found('x')]).toEqual([1]);
  });
});
