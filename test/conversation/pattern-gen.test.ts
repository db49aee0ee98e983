import { describe, expect, it } from 'vitest';
import { generateFromPattern } from '../../src/conversation/pattern-gen.js';
import { seededRandom } from '../../src/conversation/random.js';

const SUPPORTED = [
  '^[A-Z]{3}-\\d{4}$',
  '^\\+?[1-9]\\d{1,14}$',
  '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$',
  '^(foo|bar)+baz?$',
  '^#[0-9a-fA-F]{6}$',
  '^[^@\\s]+$',
  '\\p{Lu}\\p{Ll}+',
  '^(?<year>\\d{4})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])$',
  '^[\\w.-]+$',
  'x{2,}',
  '[^]',
  '\\u00e9+\\x41',
  '^[A-Z][a-z]+(?: [A-Z][a-z]+)*$',
  '^\\d{3}(\\.\\d{1,2})?$',
  '^[a-zA-Z0-9_-]{1,64}$',
  '^v\\d+\\.\\d+\\.\\d+$',
  '^(?:[01]\\d|2[0-3]):[0-5]\\d$',
  '^ord_[a-z0-9]{8}$',
  '^$',
  '',
];

describe('generateFromPattern', () => {
  it.each(SUPPORTED)('matches %s', (pattern) => {
    const regex = new RegExp(pattern, 'u');
    for (let seed = 0; seed < 30; seed += 1) {
      const value = generateFromPattern(pattern, seededRandom(seed));
      expect(value).toBeDefined();
      expect(regex.test(value ?? '')).toBe(true);
    }
  });

  it.each(['(?=a)b', '(?<!a)b', '(a)\\1', '[]', '(unclosed', 'a{3,1}'])('gives undefined for the unsupported %s', (pattern) => {
    expect(generateFromPattern(pattern, seededRandom(1))).toBeUndefined();
  });

  it('keeps open and long quantifiers short', () => {
    for (let seed = 0; seed < 30; seed += 1) {
      expect((generateFromPattern('^a{1,255}$', seededRandom(seed)) ?? '').length).toBeLessThanOrEqual(9);
      expect((generateFromPattern('^b*$', seededRandom(seed)) ?? '').length).toBeLessThanOrEqual(3);
    }
  });

  it('is deterministic', () => {
    expect(generateFromPattern('^[A-Z]{2}\\d{6}$', seededRandom(9))).toBe(generateFromPattern('^[A-Z]{2}\\d{6}$', seededRandom(9)));
  });
});
