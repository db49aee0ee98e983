// Whether a request body contains what a `body` filter gives (SPEC 17): objects by key, arrays by
// element in any order, other values exactly. A verify over a long journal asks it of thousands of
// bodies, so it is answered on the body's JSON text as the journal keeps it, without parsing it:
// only the members and elements the filter names are read, and nothing is built. The journal's
// texts are JSON.stringify's: no space outside strings, each key once, one way to write each value,
// so a value equals the wanted one exactly when its text is the wanted one's JSON.

import { contains } from '../../../conversation/json-subset.js';
import { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE, stringEnd as endOfString } from '../../../conversation/json-text.js';

export { contains };

/** The index just past the string whose opening quote is at `at`. */
function stringEnd(json: string, at: number): number {
  const end = endOfString(json, at);
  if (end === -1) throw new SyntaxError('unterminated string');
  return end;
}

/** The index just past the value that starts at `at`. */
function valueEnd(json: string, at: number): number {
  const first = json.charCodeAt(at);
  if (first === QUOTE) return stringEnd(json, at);
  let index = at;
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    // A number, true, false or null: it ends where its container goes on.
    for (; index < json.length; index++) {
      const code = json.charCodeAt(index);
      if (code === COMMA || code === CLOSE_OBJECT || code === CLOSE_ARRAY) break;
    }
    return index;
  }
  let depth = 0;
  do {
    const code = json.charCodeAt(index);
    if (code === QUOTE) {
      index = stringEnd(json, index);
      continue;
    }
    if (code === OPEN_OBJECT || code === OPEN_ARRAY) depth++;
    else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) depth--;
    index++;
  } while (depth > 0 && index < json.length);
  if (depth > 0) throw new SyntaxError('unterminated value');
  return index;
}

/**
 * Finds where the values under `keys` (as JSON writes them) start in the object at `at`, in one
 * pass that stops once all are found: `starts[i]` for `keys[i]`, -1 when the object lacks it.
 */
function membersAt(json: string, at: number, keys: readonly string[], starts: Int32Array): void {
  starts.fill(-1);
  let missing = keys.length;
  let index = at + 1;
  while (missing > 0 && json.charCodeAt(index) === QUOTE) {
    const keyEnd = stringEnd(json, index);
    if (json.charCodeAt(keyEnd) !== COLON) throw new SyntaxError('not JSON as JSON.stringify writes it');
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      if (starts[k] === -1 && keyEnd - index === key.length && json.startsWith(key, index)) {
        starts[k] = keyEnd + 1;
        missing--;
      }
    }
    index = nextElement(json, valueEnd(json, keyEnd + 1));
  }
}

/** A plain object's own keys are none: what `key in object` finds on it is inherited, as on every parsed body. */
const INHERITED: Record<string, unknown> = {};

/** Whether the value whose text starts at `at` contains the wanted value this test was made for. */
type TextTest = (json: string, at: number) => boolean;

/** The index of the element after the one that ends at `end`, or of the array's closing bracket. */
const nextElement = (json: string, end: number): number => (json.charCodeAt(end) === COMMA ? end + 1 : end);

/**
 * Scalars wanted in an array are found in one pass over its elements, by their text in a set;
 * only objects and arrays (few: a filter's size is bounded) are each looked for in a pass of their own.
 */
function arrayTest(wanted: readonly unknown[]): TextTest {
  const isScalar = (item: unknown) => item === null || typeof item !== 'object';
  // JSON.stringify writes -0 as 0: a body never holds it.
  const unmatchable = wanted.some((item) => Object.is(item, -0));
  const scalars = new Set(wanted.filter(isScalar).map((item) => JSON.stringify(item)));
  const items = wanted.filter((item) => !isScalar(item)).map(textTest);
  return (json, at) => {
    if (json.charCodeAt(at) !== OPEN_ARRAY || unmatchable) return false;
    if (scalars.size > 0) {
      const found = new Set<string>();
      for (let index = at + 1; json.charCodeAt(index) !== CLOSE_ARRAY && found.size < scalars.size; ) {
        const end = valueEnd(json, index);
        const first = json.charCodeAt(index);
        if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
          const text = json.slice(index, end);
          if (scalars.has(text)) found.add(text);
        }
        index = nextElement(json, end);
      }
      if (found.size < scalars.size) return false;
    }
    return items.every((item) => {
      for (let index = at + 1; json.charCodeAt(index) !== CLOSE_ARRAY; index = nextElement(json, valueEnd(json, index))) {
        if (item(json, index)) return true;
      }
      return false;
    });
  };
}

function objectTest(wanted: object): TextTest {
  const entries = Object.entries(wanted);
  const keys = entries.map(([key]) => JSON.stringify(key));
  const tests = entries.map(([, value]) => textTest(value));
  // A key the body lacks is looked up where JSON.parse's object would look it up: inherited.
  const absent = entries.map(([key, value]) => key in INHERITED && contains(INHERITED[key], value));
  // This test's own: a value's test never runs again inside itself (the wanted value is a tree).
  const starts = new Int32Array(keys.length);
  return (json, at) => {
    if (json.charCodeAt(at) !== OPEN_OBJECT) return false;
    membersAt(json, at, keys, starts);
    for (let k = 0; k < keys.length; k++) {
      const start = starts[k]!;
      if (start === -1 ? !absent[k] : !tests[k]!(json, start)) return false;
    }
    return true;
  };
}

function textTest(wanted: unknown): TextTest {
  if (Array.isArray(wanted)) return arrayTest(wanted);
  if (wanted !== null && typeof wanted === 'object') return objectTest(wanted);
  // JSON.stringify writes -0 as 0: a body never holds it.
  if (Object.is(wanted, -0)) return () => false;
  const text = JSON.stringify(wanted);
  return (json, at) => json.startsWith(text, at) && valueEnd(json, at) - at === text.length;
}

/**
 * `contains(JSON.parse(json), wanted)` for a body's JSON text as JSON.stringify wrote it, made
 * once for `wanted`, reading only what `wanted` names.
 */
export function jsonContains(wanted: unknown): (json: string) => boolean {
  const test = textTest(wanted);
  return (json) => test(json, 0);
}
