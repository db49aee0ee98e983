import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { FAKER_METHODS } from '../../src/conversation/faker-names.js';
import { compileTemplate } from '../../src/conversation/template.js';

/** Each module of a Faker and the functions it has, up its prototype chain (Object's own left out). */
function methodsOf(faker: Faker): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [module, target] of Object.entries(faker)) {
    if (typeof target !== 'object' || target === null) continue;
    const names = new Set<string>();
    for (let proto: object | null = target; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
      for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor' && typeof (target as Record<string, unknown>)[name] === 'function') names.add(name);
    }
    out[module] = [...names].sort();
  }
  return out;
}

describe('the faker methods a template is checked against', () => {
  it('are the installed faker\'s, module for module', () => {
    const { faker } = createRequire(import.meta.url)('@faker-js/faker/locale/en') as { faker: Faker };
    expect(Object.fromEntries(Object.entries(FAKER_METHODS).map(([module, methods]) => [module, [...methods].sort()]))).toEqual(methodsOf(faker));
  });

  it('refuse what faker does not have, and what every object has', () => {
    expect(() => compileTemplate('{{faker.person.firstName}}', [])).not.toThrow();
    expect(() => compileTemplate('{{faker.person.nickname}}', [])).toThrow(/faker has no person\.nickname/);
    expect(() => compileTemplate('{{faker.person.toString}}', [])).toThrow(/faker has no person\.toString/);
  });
});
