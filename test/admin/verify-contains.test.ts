// `body` filters are answered on the journaled body's JSON text (verify/contains.ts): the answer
// must be the one the object-level definition gives on JSON.parse's object, whatever the body and
// the filter (parts of the body, in any order, changed, absent, inherited keys, escapes, -0).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contains, jsonContains } from '../../src/exchange/admin/verify/contains.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A part of `value` chosen by `bits`: some keys of each object, some elements of each array (reversed), scalars as they are. */
function partOf(value: Json, bits: boolean[]): Json {
  const take = () => bits.shift() ?? true;
  if (Array.isArray(value)) return value.filter(take).map((item) => partOf(item, bits)).reverse();
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(take).map(([key, item]) => [key, partOf(item, bits)]));
  }
  return value;
}

const same = (body: Json, wanted: unknown) => expect(jsonContains(wanted)(JSON.stringify(body))).toBe(contains(JSON.parse(JSON.stringify(body)), wanted));

describe('jsonContains', () => {
  it('answers as contains on the parsed body, for parts of the body and for other values', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.array(fc.boolean(), { maxLength: 60 }), fc.jsonValue({ maxDepth: 3 }), (value, bits, other) => {
        // As the journal keeps it: what JSON.stringify wrote (-0 as 0).
        const body = JSON.parse(JSON.stringify(value)) as Json;
        const part = partOf(body, bits);
        expect(jsonContains(part)(JSON.stringify(body))).toBe(true);
        same(body, part);
        same(body, other);
        same(body, { wrapped: part });
        same(body, [part]);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads escapes, nesting, numbers and keys the body lacks as JSON.parse does', () => {
    const body = { a: 'say \\"hi\\" \\\\', b: [{ c: '}]"', d: 1e-7 }, [0.5, true, null]], 'k"ey': 'x', n: 12, z: -0 };
    for (const wanted of [
      { a: 'say \\"hi\\" \\\\' },
      { b: [[null, 0.5]], 'k"ey': 'x' },
      { b: [{ d: 1e-7 }] },
      { n: 1 },
      { z: 0 },
      { z: -0 },
      { toString: {} },
      { __proto__: {} },
      JSON.parse('{"__proto__":{}}'),
      { constructor: [] },
      {},
      [],
    ]) {
      same(body, wanted);
    }
    same(['a', 1], ['a']);
    same('text', 'text');
    same(null, {});
  });

  it('finds scalars of a long wanted array in a long body array, in any order, and misses one absent', () => {
    const body = { ids: Array.from({ length: 40_000 }, (_, i) => (i % 2 === 0 ? i : `s${i}`)), tags: [{ k: 1 }, 'x', { k: 2 }] };
    const wanted = Array.from({ length: 900 }, (_, i) => (i % 2 === 0 ? 39_998 - 2 * i : `s${39_999 - 2 * i}`));
    same(body, { ids: wanted });
    expect(jsonContains({ ids: wanted })(JSON.stringify(body))).toBe(true);
    expect(jsonContains({ ids: [...wanted, 40_000] })(JSON.stringify(body))).toBe(false);
    expect(jsonContains({ ids: [...wanted, 's0'] })(JSON.stringify(body))).toBe(false);
    for (const tags of [[{ k: 2 }, 'x', { k: 1 }], ['x', 'x'], [{ k: 3 }], ['x', { k: 1 }, 1], [1]]) same(body, { tags });
  });
});
