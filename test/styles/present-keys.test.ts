// A body checked against its schema narrowed to the keys it carries gets what the whole schema
// gives: the same value with its keys in the same order, and the same issues in the same order.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { parseBody } from '../../src/styles/validate.js';
import { narrowedTo } from '../../src/styles/present-keys.js';

const schema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(z.looseObject({ role: z.string(), content: z.string().nullish() })).min(1),
  stream: z.boolean().nullish(),
  n: z.number().int().min(1).nullish(),
  stop: z.union([z.string(), z.array(z.string())]).optional(),
  mode: z.string().default('auto'),
  toString: z.string().optional(),
  user: z.string().nullish(),
});

const bodies: Record<string, unknown>[] = [
  { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
  { stream: true, messages: [{ role: 'user', content: 'hi', extra: 1 }], model: 'm', other: { a: 1 } },
  { model: 'm', messages: [{ role: 'user' }], n: 2, stop: ['a'], mode: 'x', user: null },
  { model: '', messages: [], n: 0, stream: 'yes' },
  { messages: [{ role: 1 }], stop: 3 },
  { model: 'm', messages: [{ role: 'user' }], n: undefined, user: undefined },
  {},
];

const outcome = (result: z.ZodSafeParseResult<unknown>) =>
  result.success ? { keys: Object.keys(result.data as object), data: result.data } : { issues: result.error.issues };

describe('narrowedTo', () => {
  it.each(bodies.map((body) => [JSON.stringify(body), body] as const))('parses %s as the whole schema does', (_name, body) => {
    const narrowed = outcome(narrowedTo(schema, body).safeParse(body));
    expect(narrowed).toStrictEqual(outcome(schema.safeParse(body)));
    expect(JSON.stringify(narrowed)).toBe(JSON.stringify(outcome(schema.safeParse(body))));
  });

  it('leaves out only the optional keys a body does not carry, and keeps one schema a set of keys', () => {
    const body = { model: 'm', messages: [{ role: 'user' }], stream: true };
    const narrowed = narrowedTo(schema, body) as unknown as z.ZodObject;
    // `toString` is in every object, as zod tells presence: kept, as zod would run it.
    expect(Object.keys(narrowed.shape)).toEqual(['model', 'messages', 'stream', 'mode', 'toString']);
    expect(narrowedTo(schema, { ...body, stream: false })).toBe(narrowed);
  });

  it('gives schemas other than a plain object, and objects with refinements, as they are', () => {
    const union = z.union([z.looseObject({ a: z.string().optional() }), z.string()]);
    const refined = z.looseObject({ a: z.string().optional() }).refine(() => true);
    expect(narrowedTo(union, {})).toBe(union);
    expect(narrowedTo(refined, {})).toBe(refined);
  });

  it('names the same field in parseBody’s 400 as the whole schema would', () => {
    expect(() => parseBody(schema, { model: 'm', messages: [{ role: 'user' }], n: 0 })).toThrow("Invalid value for 'n'");
    expect(() => parseBody(schema, { messages: [{ role: 'user' }] })).toThrow("Missing required parameter: 'model'.");
  });
});
