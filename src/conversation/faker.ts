// Faker from its English entry point. The package's main entry loads every locale it ships,
// about 150 ms of a cold start; `locale/en` loads English and the locale-free base data only.
import type { Faker } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';

// The entry exports an instance, not the class: its constructor is the class.
const FakerClass = english.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;

/** A Faker with its own seed and the English and base data (as `new Faker({ locale: [en, base] })`). */
export function createFaker(): Faker {
  return new FakerClass({ locale: english.rawDefinitions });
}
