// How much a faker call in a template may generate, judged from its arguments when the template
// is compiled: a length or a count (positional, or a `...length`, `...count`, `min`, `max` in an
// options object) times the characters one unit makes, and the text given with it (a separator
// is repeated once a unit), is at most MAX_FAKER_AMOUNT. Arguments that are values, not amounts
// (`faker.number.int(1000000)`, a price range), are left alone.
import { MAX_FAKER_AMOUNT } from './limits.js';

// Modules and methods whose numbers are values (a maximum, a year, a price), not amounts.
const VALUE_MODULES = new Set(['number', 'date', 'commerce', 'location', 'datatype', 'color']);
const VALUE_METHODS = new Set(['finance.amount']);
// `length`, `count`, `wordCount`, `extensionCount`...
const AMOUNT_KEY = /(?:^|[a-z])(?:length|count|Length|Count)$/;
// Methods that fill a text the caller gives with no amount to judge them by.
const REFUSED_METHODS: Record<string, string> = {
  'helpers.mustache': 'write the text into the template itself',
  'helpers.multiple': 'it takes a function, which a template cannot give',
};
const RANGE_KEYS = new Set(['min', 'max']);
// About how many characters one unit of these counts makes (one paragraph, one sentence, one word).
const UNIT_CHARACTERS: Record<string, number> = {
  'lorem.paragraphs': 150,
  'lorem.paragraph': 50,
  'lorem.sentences': 50,
  'lorem.lines': 50,
  'lorem.sentence': 8,
  'lorem.words': 8,
  'lorem.slug': 8,
  'word.words': 8,
};
// Methods with an amount whose texts are not repeated with it: a pattern, characters or items to pick from.
const TEXT_READ_ONCE = new Set(['helpers.fromRegExp', 'string.fromCharacters', 'helpers.arrayElements', 'helpers.uniqueArray']);
// A repeat count in a regular expression faker expands (`{100}`, `{2,100}`).
const REPEAT = /\{(\d+)(?:,(\d*))?\}/g;

/** Throws an Error naming the call when an amount passes the bound. */
export function checkFakerAmounts(expression: string, module: string, method: string, args: readonly unknown[]): void {
  const name = `${module}.${method}`;
  if (name in REFUSED_METHODS) throw new Error(`"{{${expression}}}": faker.${name} is not available in templates; ${REFUSED_METHODS[name]}`);
  // Each unit may come with the texts given (a separator between paragraphs), unless the method
  // is known to pick from them or read them once.
  const given = TEXT_READ_ONCE.has(name) ? 0 : args.reduce<number>((sum, arg) => sum + textIn(arg), 0);
  const unit = (UNIT_CHARACTERS[name] ?? 1) + given;
  const valued = VALUE_MODULES.has(module) || VALUE_METHODS.has(name);
  const amounts = args.flatMap((arg) => amountsIn(arg, valued, false));
  if (name === 'helpers.fromRegExp' && typeof args[0] === 'string') {
    for (const [, low, high] of args[0].matchAll(REPEAT)) amounts.push(Number(high || low));
  }
  const largest = amounts.reduce((max, amount) => Math.max(max, amount), 0);
  if (largest * unit > MAX_FAKER_AMOUNT) {
    const what = unit === 1 ? `${largest}` : `${largest} (about ${largest * unit} characters)`;
    throw new Error(`"{{${expression}}}": asks faker for ${what}; a template generates at most ${MAX_FAKER_AMOUNT} characters`);
  }
}

/** The amounts an argument sets: a positional number, or numbers under length/count (and min/max). */
function amountsIn(arg: unknown, valued: boolean, underAmountKey: boolean): number[] {
  if (typeof arg === 'number') return !valued || underAmountKey ? [arg] : [];
  if (typeof arg !== 'object' || arg === null || Array.isArray(arg)) return [];
  return Object.entries(arg).flatMap(([key, value]) => {
    if (AMOUNT_KEY.test(key)) return amountsIn(value, valued, true);
    if (RANGE_KEYS.has(key) && (underAmountKey || !valued)) return amountsIn(value, valued, true);
    return [];
  });
}

/** Characters of the strings in an argument. */
function textIn(arg: unknown): number {
  if (typeof arg === 'string') return arg.length;
  if (typeof arg !== 'object' || arg === null) return 0;
  return Object.values(arg).reduce<number>((sum, value) => sum + textIn(value), 0);
}
