import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../src/conversation/random.js';
import { generateFromSchema } from '../../src/conversation/schema-gen.js';
import { SAMPLES } from './schema-samples.js';
import { compileSchema } from './schema-validation.js';

const compiled = SAMPLES.map((sample) => ({ ...sample, validate: compileSchema(sample.schema, sample.dialect) }));

function expectValid(validate: ReturnType<typeof compileSchema>, value: unknown): void {
  const ok = validate(value);
  expect(ok, `${JSON.stringify(value)}\n${JSON.stringify(validate.errors)}`).toBe(true);
}

describe('generateFromSchema on SDK-style schemas', () => {
  it.each(compiled)('$name validates for a range of seeds', ({ validate, schema }) => {
    for (let seed = 0; seed < 40; seed += 1) expectValid(validate, generateFromSchema(schema, seededRandom(seed, 'table')));
  });

  it('validates for any seed (property)', () => {
    fc.assert(
      // An index rather than the sample, so a counterexample prints short.
      fc.property(fc.oneof(fc.integer(), fc.string()), fc.nat({ max: compiled.length - 1 }), (seed, index) => {
        const { validate, schema } = compiled[index] as (typeof compiled)[number];
        expect(validate(generateFromSchema(schema, seededRandom(seed))), JSON.stringify(validate.errors)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('is deterministic: the same seed gives a deep-equal value', () => {
    for (const { schema } of SAMPLES) {
      expect(generateFromSchema(schema, seededRandom(7, 'same'))).toEqual(generateFromSchema(schema, seededRandom(7, 'same')));
    }
  });

  it('reads neither Math.random nor Date.now', () => {
    const random = vi.spyOn(Math, 'random');
    const now = vi.spyOn(Date, 'now');
    try {
      for (const { schema } of SAMPLES) generateFromSchema(schema, seededRandom(5));
      expect(random).not.toHaveBeenCalled();
      expect(now).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('varies with the seed', () => {
    const schema = SAMPLES[0]?.schema ?? {};
    const values = new Set(Array.from({ length: 10 }, (_, seed) => JSON.stringify(generateFromSchema(schema, seededRandom(seed)))));
    expect(values.size).toBe(10);
  });
});

describe('generateFromSchema details', () => {
  const generate = (schema: Record<string, unknown>, seed: number | string = 1): unknown => generateFromSchema(schema, seededRandom(seed));

  it('emits every declared property, in Gemini propertyOrdering when given', () => {
    const value = generate({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'boolean' } } });
    expect(Object.keys(value as object)).toEqual(['a', 'b', 'c']);
    const ordered = generate({ type: 'OBJECT', properties: { a: { type: 'STRING' }, b: { type: 'STRING' } }, propertyOrdering: ['b', 'a'] });
    expect(Object.keys(ordered as object)).toEqual(['b', 'a']);
  });

  it('prefers the non-null type, for type arrays and nullable', () => {
    for (let seed = 0; seed < 20; seed += 1) {
      expect(generate({ type: ['null', 'string'] }, seed)).toEqual(expect.any(String));
      expect(generate({ type: 'INTEGER', nullable: true }, seed)).toEqual(expect.any(Number));
      expect(generate({ anyOf: [{ type: 'null' }, { type: 'boolean' }] }, seed)).toEqual(expect.any(Boolean));
    }
  });

  it('gives property-name-aware strings', () => {
    const value = generate({
      type: 'object',
      properties: { email: { type: 'string' }, userId: { type: 'string' }, created_at: { type: 'string' }, price: { type: 'number' }, cities: { type: 'array', items: { type: 'string' } } },
    }) as Record<string, unknown>;
    expect(value.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/i);
    expect(value.userId).toMatch(/^[0-9a-f-]{36}$/);
    expect(value.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(value.price).toBeGreaterThanOrEqual(1);
    expect(value.price).toBeLessThanOrEqual(1000);
    expect((value.cities as string[]).every((city) => /^[A-Z]/.test(city))).toBe(true);
  });

  it('terminates on recursion that cannot be cut short and keeps recursive values small', () => {
    expect(() => generate({ type: 'object', properties: { self: { $ref: '#' } }, required: ['self'] })).not.toThrow();
    const tree = SAMPLES.find((sample) => sample.name.includes('recursive UI'))?.schema ?? {};
    for (let seed = 0; seed < 20; seed += 1) expect(JSON.stringify(generate(tree, seed)).length).toBeLessThan(20_000);
  });

  it('treats special keys as data, not as the prototype', () => {
    // As decoded from a request body: JSON.parse makes "__proto__" an own key.
    const value = generate(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"integer"}},"required":["__proto__"]}'));
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(JSON.stringify(value)).toMatch(/^\{"__proto__":-?\d+\}$/);
  });

  it('falls back to a string for patterns beyond the supported subset', () => {
    expect(generate({ type: 'string', pattern: '^(a)\\1$' })).toEqual(expect.any(String));
  });
});

// Random schemas from the supported subset, each satisfiable by construction.
const leafSchema = fc.oneof(
  fc.record({ type: fc.constant('string'), minLength: fc.integer({ min: 0, max: 5 }), maxLength: fc.integer({ min: 5, max: 30 }) }),
  fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 1000 })).map(([low, span]) => ({ type: 'integer', minimum: low, maximum: low + span })),
  fc.tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: 0.01, max: 1e6, noNaN: true })).map(([low, span]) => ({
    type: 'number',
    exclusiveMinimum: low,
    exclusiveMaximum: low + span,
  })),
  fc.constantFrom<Record<string, unknown>>(
    { type: 'boolean' },
    { type: 'null' },
    { type: ['string', 'null'] },
    { enum: ['red', 'green', 7, null] },
    { const: { fixed: true } },
    { type: 'number', multipleOf: 0.25 },
    { type: 'integer', multipleOf: 7, minimum: 1 },
    { type: 'string', format: 'date-time' },
    { type: 'string', pattern: '^[a-z]{2,4}_\\d+$' },
  ),
);
const { schema: randomSchema } = fc.letrec<{ schema: Record<string, unknown> }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafSchema,
    fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z_]{0,10}$/), tie('schema'), { maxKeys: 4 }).chain((properties) =>
      fc.subarray(Object.keys(properties)).chain((required) =>
        fc.boolean().map((closed) => ({ type: 'object', properties, required, ...(closed ? { additionalProperties: false } : {}) })),
      ),
    ),
    fc.tuple(tie('schema'), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })).map(([items, min, extra]) => ({ type: 'array', items, minItems: min, maxItems: min + extra })),
    fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
  ),
}));

describe('generateFromSchema on random schemas', () => {
  it('validates against any schema of the supported subset', () => {
    fc.assert(
      fc.property(randomSchema, fc.integer(), (schema, seed) => {
        const validate = compileSchema(schema, '2020-12');
        const value = generateFromSchema(schema, seededRandom(seed));
        expect(validate(value), `${JSON.stringify(value)} ${JSON.stringify(validate.errors)}`).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
