// `body` filters read only the members they name from a journaled body's JSON text: what they
// read must be what JSON.parse reads, whatever the body holds (escaped quotes and backslashes in
// strings, nesting, numbers, keys with escapes), or a verify would answer differently.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { membersOf } from '../../src/exchange/admin/verify/members.js';

/** The members of `body` named by `keys`, as JSON.parse gives them. */
function parsedMembers(json: string, keys: readonly string[]): unknown {
  const body = JSON.parse(json) as unknown;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return Object.fromEntries(keys.filter((key) => Object.hasOwn(body, key)).map((key) => [key, (body as Record<string, unknown>)[key]]));
}

describe('membersOf', () => {
  it('reads the members asked for as JSON.parse does, in bodies as JSON.stringify writes them', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.string(), { maxLength: 3 }), (body, extra) => {
        const json = JSON.stringify(body);
        const keys = [...Object.keys(body).filter((_, index) => index % 2 === 0), ...extra];
        expect(membersOf(json, new Set(keys))).toEqual(parsedMembers(json, keys));
      }),
      { numRuns: 500 },
    );
  });

  it('handles quotes after backslashes, nested containers and a body that is not an object', () => {
    const body = { a: 'say \\"hi\\" \\\\', b: [{ c: '}]"' }, [1e-7, -0.5, true, null]], d: { e: { f: '\\' } }, 'k\\"ey': 'x' };
    const json = JSON.stringify(body);
    expect(membersOf(json, new Set(['b', 'd', 'k\\"ey']))).toEqual({ b: body.b, d: body.d, 'k\\"ey': 'x' });
    const proto = membersOf('{"__proto__":{"x":1},"y":2}', new Set(['__proto__'])) as Record<string, unknown>;
    expect(Object.keys(proto)).toEqual(['__proto__']);
    expect(membersOf(JSON.stringify(['a', 1]), new Set(['a']))).toEqual(['a', 1]);
    expect(membersOf('"text"', new Set(['a']))).toBe('text');
    expect(membersOf('{}', new Set(['a']))).toEqual({});
  });
});
