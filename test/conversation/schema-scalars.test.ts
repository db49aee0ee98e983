import { base, en, Faker } from '@faker-js/faker';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/conversation/random.js';
import { generateNumber, generateString, snakeName, toNumber } from '../../src/conversation/schema-scalars.js';

const faker = new Faker({ locale: [en, base] });
const text = (schema: Record<string, unknown>, name = '', seed = 1): string => {
  faker.seed(seed);
  return generateString(schema, name, seededRandom(seed), faker);
};

describe('toNumber and snakeName', () => {
  it('reads numbers and numeric strings (Gemini int64)', () => {
    expect(toNumber(3)).toBe(3);
    expect(toNumber('12')).toBe(12);
    expect(toNumber('')).toBeUndefined();
    expect(toNumber('ten')).toBeUndefined();
    expect(toNumber(Number.NaN)).toBeUndefined();
  });

  it('normalises property names', () => {
    expect(snakeName('userId')).toBe('user_id');
    expect(snakeName('first-name')).toBe('first_name');
    expect(snakeName('Created At')).toBe('created_at');
  });
});

describe('generateString', () => {
  it('follows the property name', () => {
    expect(text({ type: 'string' }, 'email')).toMatch(/@/);
    expect(text({ type: 'string' }, 'order_id')).toMatch(/^[0-9a-f]{8}-/);
    expect(text({ type: 'string' }, 'birthDate')).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(text({ type: 'string' }, 'website')).toMatch(/^https?:\/\//);
    expect(text({ type: 'string' }, 'description').split(' ').length).toBeGreaterThan(4);
  });

  it('lets the format win over the name', () => {
    expect(text({ type: 'string', format: 'date' }, 'email')).toMatch(/^\d{4}-\d\d-\d\d$/);
  });

  it('pads and cuts to minLength and maxLength, counting code points', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), (seed, min, extra) => {
        const length = Array.from(text({ type: 'string', minLength: min, maxLength: min + extra }, 'name', seed)).length;
        expect(length).toBeGreaterThanOrEqual(min);
        expect(length).toBeLessThanOrEqual(min + extra);
      }),
    );
  });
});

describe('generateNumber', () => {
  it('respects bounds, exclusive bounds and multipleOf', () => {
    const bound = fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: undefined });
    fc.assert(
      fc.property(fc.integer(), bound, bound, fc.boolean(), fc.boolean(), fc.constantFrom(undefined, 1, 0.5, 0.01, 3, 25), (seed, a, b, exclusive, integer, step) => {
        const [low, high] = a !== undefined && b !== undefined && a > b ? [b, a] : [a, b];
        // Leave room for a valid value: at least one step (or integer) between the bounds.
        if (low !== undefined && high !== undefined && high - low < Math.max(step ?? 0, 1) * 2) return;
        const schema = exclusive ? { exclusiveMinimum: low, exclusiveMaximum: high, multipleOf: step } : { minimum: low, maximum: high, multipleOf: step };
        const value = generateNumber(schema, '', integer, seededRandom(seed));
        if (integer) expect(Number.isInteger(value)).toBe(true);
        if (step !== undefined) expect(Number.isInteger(value / step)).toBe(true);
        if (low !== undefined) expect(exclusive ? value > low : value >= low).toBe(true);
        if (high !== undefined) expect(exclusive ? value < high : value <= high).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads draft-04 boolean exclusive bounds', () => {
    for (let seed = 0; seed < 50; seed += 1) {
      const value = generateNumber({ minimum: 0, maximum: 2, exclusiveMinimum: true, exclusiveMaximum: true }, '', true, seededRandom(seed));
      expect(value).toBe(1);
    }
  });

  it('picks plausible ranges from the name when the schema leaves them open', () => {
    const age = generateNumber({}, 'age', true, seededRandom(1));
    expect(age).toBeGreaterThanOrEqual(18);
    expect(age).toBeLessThanOrEqual(90);
    const latitude = generateNumber({}, 'lat', false, seededRandom(1));
    expect(Math.abs(latitude)).toBeLessThanOrEqual(90);
    expect(generateNumber({ minimum: 5000 }, 'count', true, seededRandom(1))).toBeGreaterThanOrEqual(5000);
  });
});
