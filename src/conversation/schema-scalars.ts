// Leaf values for schema-true JSON: strings and numbers that satisfy their keywords and read like
// real data, guessed from the property name ("city" gives a city, "price" a price).
import type { Faker } from '@faker-js/faker';
import { generateFromPattern } from './pattern-gen.js';
import type { Random } from './random.js';
import { Memo } from './remember.js';
import type { JsonSchema } from './types.js';

type Fake = (faker: Faker, random: Random) => string;

// Generated dates fall in 2020-2026, whole seconds; fixed bounds, so no clock is read.
const FIRST_SECOND = Date.UTC(2020, 0, 1) / 1000;
const LAST_SECOND = Date.UTC(2026, 11, 31) / 1000;
const isoDateTime: Fake = (_, random) => new Date(random.int(FIRST_SECOND, LAST_SECOND) * 1000).toISOString().replace(/\.000Z$/, 'Z');
const isoDate: Fake = (faker, random) => isoDateTime(faker, random).slice(0, 10);
const isoTime: Fake = (faker, random) => isoDateTime(faker, random).slice(11);
const sentence: Fake = (faker) => faker.hacker.phrase().replace(/!$/, '.');

const FORMATS: Record<string, Fake> = {
  'date-time': isoDateTime,
  date: isoDate,
  time: isoTime,
  email: (faker) => faker.internet.email(),
  'idn-email': (faker) => faker.internet.email(),
  uri: (faker) => faker.internet.url(),
  url: (faker) => faker.internet.url(),
  'uri-reference': (faker) => faker.internet.url(),
  iri: (faker) => faker.internet.url(),
  uuid: (faker) => faker.string.uuid(),
  ipv4: (faker) => faker.internet.ipv4(),
  ipv6: (faker) => faker.internet.ipv6(),
  hostname: (faker) => faker.internet.domainName(),
  'idn-hostname': (faker) => faker.internet.domainName(),
  duration: (_, random) => `PT${random.int(1, 59)}M`,
};

// Tried in order on the snake_case property name, so specific names come before general ones.
const STRING_HINTS: ReadonlyArray<readonly [RegExp, Fake]> = [
  [/e_?mail/, (faker) => faker.internet.email()],
  [/(^|_)ip(v4)?(_address)?$/, (faker) => faker.internet.ipv4()],
  [/image|avatar|photo|picture|thumbnail/, (faker) => faker.image.url()],
  [/(^|_)(url|uri|link|website|homepage|href)s?(_|$)/, (faker) => faker.internet.url()],
  [/user_?name|handle|login|nickname/, (faker) => faker.internet.username()],
  [/first_?name|given_?name/, (faker) => faker.person.firstName()],
  [/last_?name|surname|family_?name/, (faker) => faker.person.lastName()],
  [/company|organi[sz]ation|employer|brand|vendor|publisher/, (faker) => faker.company.name()],
  [/product|item_name/, (faker) => faker.commerce.productName()],
  [/file_?name/, (faker) => faker.system.fileName()],
  [/(^|_)(city|town)/, (faker) => faker.location.city()],
  [/country_?code/, (faker) => faker.location.countryCode()],
  [/country|(^|_)nation/, (faker) => faker.location.country()],
  [/(^|_)(state|province|region)$/, (faker) => faker.location.state()],
  [/zip|postal|postcode/, (faker) => faker.location.zipCode()],
  [/street|address/, (faker) => faker.location.streetAddress()],
  [/location|place|destination|origin/, (faker) => `${faker.location.city()}, ${faker.location.country()}`],
  [/phone|mobile|fax/, (faker) => faker.phone.number()],
  [/time_?zone/, (faker) => faker.location.timeZone()],
  [/date_?time|timestamp|_at$|^(created|updated|modified)/, isoDateTime],
  [/(^|_)(date|birthday|dob|day)(_|$)/, isoDate],
  [/(^|_)time$/, (faker, random) => isoTime(faker, random).slice(0, 5)],
  [/currency/, (faker) => faker.finance.currencyCode()],
  [/colou?r/, (faker) => faker.color.human()],
  [/language/, (faker) => faker.location.language().name],
  [/job|occupation|profession|(^|_)role$/, (faker) => faker.person.jobTitle()],
  [/(^|_)(uu|gu)?id$/, (faker) => faker.string.uuid()],
  [/title|headline|subject|heading/, (faker) => faker.company.catchPhrase()],
  [/name|author|person|customer|owner|contact|assignee/, (faker) => faker.person.fullName()],
  [/description|summary|content|text|message|body|comment|note|reason|explanation|answer|bio|detail|instruction|feedback|review|response|reply/, sentence],
  [/weather|condition|forecast/, (_, random) => random.pick(['sunny', 'partly cloudy', 'overcast', 'light rain', 'clear', 'windy'])],
  [/status/, (_, random) => random.pick(['active', 'pending', 'completed'])],
  [/category|genre|department/, (faker) => faker.commerce.department()],
  [/(^|_)code$|sku/, (faker) => faker.string.alphanumeric({ length: 8, casing: 'upper' })],
  [/version/, (faker) => faker.system.semver()],
  [/tag|keyword|topic|label|word/, (faker) => faker.word.noun()],
];

// Default [low, high] for numbers by property name, used where the schema leaves a side open.
const NUMBER_HINTS: ReadonlyArray<readonly [RegExp, number, number]> = [
  [/price|amount|cost|total|balance|salary|fee|revenue|budget|payment/, 1, 1000],
  [/(^|_)age$/, 18, 90],
  [/year/, 1990, 2030],
  [/(^|_)lat(itude)?$/, -90, 90],
  [/(^|_)(lon|lng|long|longitude)$/, -180, 180],
  [/rating|stars/, 1, 5],
  [/confidence|probability|likelihood/, 0, 1],
  [/percent|pct|humidity/, 0, 100],
  [/temp/, -10, 40],
  [/count|quantity|qty|number_of|(^|_)num_|size|limit|page/, 1, 20],
];
const DEFAULT_RANGE = [0, 100] as const;
const ATTEMPTS = 8;

/** A number from a JSON number or a numeric string (Gemini sends int64 fields such as minItems as strings). */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** userId, user-id and UserID all become user_id, the form the hint tables match. */
export function snakeName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[\s-]+/g, '_').toLowerCase();
}

interface Hints {
  fake?: Fake;
  range: readonly [number, number];
}

/**
 * What a property's name suggests, found once per name: the hint tables are dozens of patterns,
 * and a large structured output asks for the same few names thousands of times.
 */
/** A name's hints: their object and the range's pair. */
const HINTS_BYTES = 96;
const hintsByName = new Memo<Hints>('hints', 1024, () => HINTS_BYTES);

/** Longer names (a client may send any) are looked up each time rather than kept. */
const HINT_NAME_CHARS = 64;

function hintsOf(name: string): Hints {
  let hints = hintsByName.get(name);
  if (hints) return hints;
  const key = snakeName(name);
  const number = NUMBER_HINTS.find(([test]) => test.test(key));
  hints = { fake: key === '' ? undefined : STRING_HINTS.find(([test]) => test.test(key))?.[1], range: number ? [number[1], number[2]] : DEFAULT_RANGE };
  if (name.length <= HINT_NAME_CHARS) hintsByName.set(name, hints);
  return hints;
}

export function generateString(schema: JsonSchema, name: string, random: Random, faker: Faker): string {
  const format = typeof schema.format === 'string' ? FORMATS[schema.format.toLowerCase()] : undefined;
  if (format) return format(faker, random);
  if (typeof schema.pattern === 'string') {
    const matching = patterned(schema, schema.pattern, random);
    if (matching !== undefined) return matching;
  }
  const fake = hintsOf(name).fake;
  const text = fake ? fake(faker, random) : words(faker, faker.number.int({ min: 1, max: 2 }));
  return fitLength(text, toNumber(schema.minLength) ?? 0, toNumber(schema.maxLength) ?? Infinity, faker);
}

/** A match for the pattern within the length bounds, or undefined when none was found. */
function patterned(schema: JsonSchema, pattern: string, random: Random): string | undefined {
  const min = toNumber(schema.minLength) ?? 0;
  const max = toNumber(schema.maxLength) ?? Infinity;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const candidate = generateFromPattern(pattern, random);
    if (candidate === undefined) return undefined;
    const length = codePoints(candidate);
    if (length >= min && length <= max) return candidate;
  }
  return undefined;
}

/**
 * Every word of faker's English word lists. Strings are made of words drawn from it directly:
 * `faker.word.sample` shuffles its lists at each call and cost sixteen times as much, most of the
 * time of a large structured output (10,000 strings of 90 characters).
 */
let wordPool: readonly string[] | undefined;

function words(faker: Faker, count: number): string {
  const pool = (wordPool ??= Object.values(faker.rawDefinitions.word ?? {}).flat() as string[]);
  let out = faker.helpers.arrayElement(pool);
  for (let index = 1; index < count; index += 1) out += ` ${faker.helpers.arrayElement(pool)}`;
  return out;
}

const SURROGATE_PAIR = /[\ud800-\udbff][\udc00-\udfff]/g;

/** The length in code points, as JSON Schema counts it, without an array of them. */
function codePoints(text: string): number {
  return text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);
}

/** Pads with words or cuts at maxLength; lengths are in code points. */
function fitLength(text: string, min: number, max: number, faker: Faker): string {
  let out = text;
  // Counted as it grows: measuring the whole string each time would make long minimums quadratic.
  for (let length = codePoints(out); length < min; ) {
    const word = ` ${words(faker, 1)}`;
    out += word;
    length += codePoints(word);
  }
  if (codePoints(out) <= max) return out;
  const cut = Array.from(out).slice(0, max).join('');
  return codePoints(cut.trimEnd()) >= min ? cut.trimEnd() : cut;
}

export function generateNumber(schema: JsonSchema, name: string, integer: boolean, random: Random): number {
  const minimum = schema.exclusiveMinimum === true ? undefined : toNumber(schema.minimum);
  const maximum = schema.exclusiveMaximum === true ? undefined : toNumber(schema.maximum);
  // Draft-04 spells an exclusive bound as a boolean beside minimum/maximum.
  const exclusiveMin = schema.exclusiveMinimum === true ? toNumber(schema.minimum) : toNumber(schema.exclusiveMinimum);
  const exclusiveMax = schema.exclusiveMaximum === true ? toNumber(schema.maximum) : toNumber(schema.exclusiveMaximum);
  const step = toNumber(schema.multipleOf);
  const fits = (value: number): boolean =>
    (minimum === undefined || value >= minimum) &&
    (maximum === undefined || value <= maximum) &&
    (exclusiveMin === undefined || value > exclusiveMin) &&
    (exclusiveMax === undefined || value < exclusiveMax) &&
    (!integer || Number.isInteger(value)) &&
    // The same float test validators such as ajv apply, so 0.29 with multipleOf 0.01 is avoided.
    (step === undefined || step <= 0 || Number.isInteger(value / step));

  const [low, high] = range(greater(minimum, exclusiveMin), lesser(maximum, exclusiveMax), hintsOf(name).range);
  const draw = (): number | undefined => {
    if (step !== undefined && step > 0) {
      const k = intBetween(random, low / step, high / step);
      return k === undefined ? undefined : tidy(k * step, step);
    }
    if (integer) return intBetween(random, low, high);
    return Math.round((low + random.next() * (high - low)) * 100) / 100;
  };
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const value = draw();
    if (value !== undefined && fits(value)) return value;
  }
  // Narrow or exclusive ranges: the middle is the likeliest value to fit.
  const middle = (low + high) / 2;
  const stepped = step !== undefined && step > 0 ? [tidy(Math.ceil(middle / step) * step, step), tidy(Math.ceil(low / step) * step, step)] : [];
  return [...stepped, Math.round(middle), Math.ceil(low), middle, low].find(fits) ?? low;
}

/** The schema's bounds, with open sides filled from the name's hint (or 0-100). */
function range(low: number | undefined, high: number | undefined, [hintLow, hintHigh]: readonly [number, number]): [number, number] {
  const span = hintHigh - hintLow;
  if (low !== undefined && high !== undefined) return [low, high];
  // Strictly beyond the given side, so an exclusive bound never leaves an empty range.
  if (low !== undefined) return [low, hintHigh > low ? hintHigh : low + span];
  if (high !== undefined) return [hintLow < high ? hintLow : high - span, high];
  return [hintLow, hintHigh];
}

function intBetween(random: Random, low: number, high: number): number | undefined {
  return Math.ceil(low) > Math.floor(high) ? undefined : random.int(low, high);
}

/** k * step without float dust: 3 * 0.1 gives 0.3, not 0.30000000000000004. */
function tidy(value: number, step: number): number {
  const [, fraction = '', exponent] = /^[^.e]*(?:\.(\d+))?(?:e-(\d+))?$/.exec(String(step)) ?? [];
  const decimals = Math.min(20, fraction.length + Number(exponent ?? 0));
  return Number(value.toFixed(decimals));
}

const greater = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.max(a, b));
const lesser = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.min(a, b));
