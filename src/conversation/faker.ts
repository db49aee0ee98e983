// Faker from its English entry point, loaded at its first use. The package's main entry loads every
// locale it ships, about 150 ms of a cold start; `locale/en` loads English and the locale-free base
// data only, still the largest package the command's start compiled (about 480 KB): a fixture hit
// never calls it, so it is loaded when a reply is first generated or a template first rendered.
// What a template may call is checked at load against a list of faker's methods (faker-names.ts).
import type { Faker } from '@faker-js/faker';
import { FAKER_METHODS } from './faker-names.js';
import { atFirstUse } from './first-use.js';

type FakerEntry = { faker: Faker };

const englishEntry = atFirstUse<FakerEntry>('@faker-js/faker/locale/en');

/** A Faker with its own seed and the English and base data (as `new Faker({ locale: [en, base] })`). */
function createFaker(): Faker {
  const english = englishEntry().faker;
  // The entry exports an instance, not the class: its constructor is the class.
  const FakerClass = english.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;
  return new FakerClass({ locale: english.rawDefinitions });
}

/** A Faker of its own, made at its first use: `const faker = fakerLater(); faker().seed(1)`. */
export function fakerLater(): () => Faker {
  let made: Faker | undefined;
  return () => (made ??= createFaker());
}

/** Whether `faker.<module>.<method>` is a function a template can call. */
export function fakerHas(module: string, method: string): boolean {
  return Object.hasOwn(FAKER_METHODS, module) && FAKER_METHODS[module]!.includes(method);
}
