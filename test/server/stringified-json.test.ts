// The journal keeps a JSON body's own text only when isStringified says it is JSON.stringify's
// form of the parsed value: verify's `body` filters read that text assuming the form.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStringified } from '../../src/server/stringified-json.js';

/** Objects keyed by words, so the parsed object keeps the text's key order. */
const json = fc.letrec((tie) => ({
  value: fc.oneof({ maxDepth: 4 }, fc.double(), fc.integer(), fc.string(), fc.string({ unit: 'binary' }), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.string().map((key) => `k${key}`), tie('value'), { maxKeys: 4 }),
})).object;

/** The same JSON written in the ways other clients write it. */
const WRITINGS: ((value: unknown) => string)[] = [
  (value) => JSON.stringify(value),
  (value) => JSON.stringify(value, null, 2),
  // Python's json.dumps: every non-ASCII character escaped, spaces after separators.
  (value) => JSON.stringify(value, null, 1).replace(/\n */g, ' ').replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  // Go's encoding/json: <, > and & escaped.
  (value) => JSON.stringify(value).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`),
  (value) => JSON.stringify(value).replaceAll('/', '\\/'),
  (value) => JSON.stringify(value).replace(/:(-?\d+)([,}\]])/g, ':$1.0$2'),
  (value) => JSON.stringify(value).replace(/:(\d+)([,}\]])/g, ':$1e0$2'),
];

describe('isStringified', () => {
  it('says yes only for the text JSON.stringify writes of what it parses to', () => {
    fc.assert(
      fc.property(json, fc.nat(WRITINGS.length - 1), (value, way) => {
        const text = WRITINGS[way]!(value);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return;
        }
        if (isStringified(text, parsed)) expect(text).toBe(JSON.stringify(parsed));
      }),
      { numRuns: 3000 },
    );
  });

  it('says yes for what SDKs send: words, escapes, integers, short decimals', () => {
    const body = { model: 'claude-opus-4-8', max_tokens: 64000, temperature: 0.7, top_p: 1, system: 'Line one\nsaid "hi"\t\\ café 📦 \u0001', tools: [{ name: 'Write', input_schema: { type: 'object', required: ['file_path'] } }], stop: null, stream: false };
    const text = JSON.stringify(body);
    expect(isStringified(text, JSON.parse(text))).toBe(true);
  });

  it('says no for a key written twice, which the parsed value holds once', () => {
    const text = '{"model":"a","model":"b"}';
    expect(isStringified(text, JSON.parse(text))).toBe(false);
  });

  it('says no for numbers JSON.stringify writes otherwise, and for an empty body', () => {
    for (const text of ['{"n":-0}', '{"n":1.50}', '{"n":1e2}', '{"n":0.0000001}', '{"n":12345678901234567890}', '{"n":0.30000000000000004}']) {
      expect(isStringified(text, JSON.parse(text)), text).toBe(false);
    }
    expect(isStringified('', {})).toBe(false);
  });
});
