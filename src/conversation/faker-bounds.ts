// How much a faker call in a template may generate, judged from its arguments when the template
// is compiled: a length or a count (positional, or `length`, `count`, `min`, `max` in an options
// object) times the characters one unit makes is at most MAX_FAKER_AMOUNT. Arguments that are
// values, not amounts (`faker.number.int(1000000)`, a price range), are left alone.
import { MAX_FAKER_AMOUNT } from './limits.js';

// Modules and methods whose numbers are values (a maximum, a year, a price), not amounts.
const VALUE_MODULES = new Set(['number', 'date', 'commerce', 'location', 'datatype', 'color']);
const VALUE_METHODS = new Set(['finance.amount']);
const AMOUNT_KEYS = new Set(['length', 'count']);
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
// A repeat count in a regular expression faker expands (`{100}`, `{2,100}`).
const REPEAT = /\{(\d+)(?:,(\d*))?\}/g;

/** Throws an Error naming the call when an amount passes the bound. */
export function checkFakerAmounts(expression: string, module: string, method: string, args: readonly unknown[]): void {
  const name = `${module}.${method}`;
  const unit = UNIT_CHARACTERS[name] ?? 1;
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
    if (AMOUNT_KEYS.has(key)) return amountsIn(value, valued, true);
    if (RANGE_KEYS.has(key) && (underAmountKey || !valued)) return amountsIn(value, valued, true);
    return [];
  });
}
