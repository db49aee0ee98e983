// A body's shape (its nesting and its size, the journal's figure) is the same however the walk is
// done: leaves counted where they are met give what queueing each of them gave.
import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH } from '../../src/conversation/json-text.js';
import { measureBody, measureJson } from '../../src/styles/body-shape.js';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

describe('measureBody', () => {
  it('counts keys, array indices, strings and other values as before', () => {
    // 1 (object) + "input" 5 + 3 + 1 (array) + indices "0", "1" 2 × (1 + 3) + "ab" 4 + "c" 3 + "n" 1 + 3 + 7 (1)
    expect(measureBody({ input: ['ab', 'c'], n: 7 })).toEqual({ withinDepth: true, size: 30 });
    expect(measureBody('abc')).toEqual({ withinDepth: true, size: 3 });
    expect(measureBody(null)).toEqual({ withinDepth: true, size: 1 });
  });

  it('counts a long list of short strings with every index', () => {
    const input = Array.from({ length: 200_000 }, (_, i) => `hi ${i}`);
    const strings = input.reduce((sum, text) => sum + text.length + 2, 0);
    const indices = input.reduce((sum, _text, i) => sum + String(i).length + 3, 0);
    expect(measureBody({ input })).toEqual({ withinDepth: true, size: 1 + 8 + 1 + indices + strings });
  });

  it(`refuses a body nested deeper than ${MAX_BODY_DEPTH} levels, and takes one at the bound`, () => {
    expect(measureBody(nested(MAX_BODY_DEPTH)).withinDepth).toBe(true);
    expect(measureBody(nested(MAX_BODY_DEPTH + 1)).withinDepth).toBe(false);
  });
});

describe('measureJson', () => {
  // A text's brackets, `{` and `[` alike and inside strings too, are counted up to the bound: at
  // most that many and its length is its size, one more and its parsed value is walked.
  const withBrackets = (objects: number, arrays: number, inString: number): string =>
    JSON.stringify({ o: nestedObjects(objects), a: nested(arrays), s: '{['.repeat(inString) });
  const nestedObjects = (levels: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < levels; i++) value = { k: value };
    return value;
  };

  it.each([
    [60, 67, 0],
    [0, 0, 63],
    [127, 0, 0],
    [0, 127, 0],
  ])('takes a text of %i objects, %i arrays and %i pairs in a string, at the bound, by its length', (objects, arrays, inString) => {
    const text = withBrackets(objects, arrays, inString);
    expect(measureJson(text, JSON.parse(text))).toEqual({ withinDepth: true, size: text.length });
  });

  it.each([
    [61, 67, 0],
    [0, 0, 64],
    [128, 0, 0],
    [0, 128, 0],
    [1, 0, 64],
  ])('walks a text of %i objects, %i arrays and %i pairs in a string, past the bound', (objects, arrays, inString) => {
    const text = withBrackets(objects, arrays, inString);
    const body = JSON.parse(text) as unknown;
    expect(measureJson(text, body)).toEqual(measureBody(body));
    expect(measureBody(body).size).not.toBe(text.length);
  });

  it('refuses a text nested past the bound', () => {
    const text = JSON.stringify(nested(MAX_BODY_DEPTH + 1));
    expect(measureJson(text, JSON.parse(text)).withinDepth).toBe(false);
  });

  it('takes a short text whole', () => {
    expect(measureJson('[]', [])).toEqual({ withinDepth: true, size: 2 });
  });
});
