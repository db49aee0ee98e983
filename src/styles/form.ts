// Multipart forms as the SDKs write them: nested values spelled with brackets
// (`input_reference[image_url]`, `metadata[content][][type]`) and every scalar a string. These
// turn such a form back into the JSON body the same endpoint takes, so one schema checks both.
import * as z from 'zod';
import { invalid } from '../conversation/errors.js';
import { MAX_BODY_DEPTH } from '../conversation/json-text.js';

type Fields = Record<string, string | string[]>;
type Tree = Record<string, unknown>;

/** A form carries at most 1000 fields (the parser's cap): a larger index would only open a hole. */
const MAX_INDEX = 1000;

/**
 * `a[b][][c]` -> ['a', 'b', '', 'c']; a name without brackets is one key. A JSON body can no more
 * nest deeper than MAX_BODY_DEPTH or name `__proto__`, so neither can a form.
 */
function keyPath(name: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  const path = match ? [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)] : [name];
  if (path.length > MAX_BODY_DEPTH) throw invalid(`The form field names more than ${MAX_BODY_DEPTH} levels.`, undefined, 'invalid_body');
  if (path.includes('__proto__')) throw invalid(`Invalid form field name '${name}'.`, name, 'invalid_body');
  if (path.some((key) => /^\d+$/.test(key) && Number(key) > MAX_INDEX)) {
    throw invalid(`Invalid form field name '${name}': an index is over ${MAX_INDEX}.`, name, 'invalid_body');
  }
  return path;
}

function place(root: Tree, path: string[], value: string, occurrence: number): void {
  let node: Tree | unknown[] = root;
  for (let i = 0; i < path.length; i++) {
    const last = i === path.length - 1;
    const key = path[i]!;
    // `[]` appends; a value's n-th occurrence goes to the n-th element, so the fields of one
    // element (which a form cannot group) line up when each element has the same keys.
    const slot: string | number = key === '' || /^\d+$/.test(key) ? (key === '' ? occurrence : Number(key)) : key;
    const container = node as Record<string | number, unknown>;
    if (last) {
      container[slot] = value;
      return;
    }
    const nextIsIndex = path[i + 1] === '' || /^\d+$/.test(path[i + 1]!);
    // Only own values are walked into: `constructor[prototype]` must never reach Object.prototype.
    const own = Object.hasOwn(container, slot) ? container[slot] : undefined;
    if (own === null || typeof own !== 'object') container[slot] = nextIsIndex ? [] : {};
    node = container[slot] as Tree | unknown[];
  }
}

export function unflattenForm(fields: Fields): Tree {
  const root: Tree = {};
  for (const [name, raw] of Object.entries(fields)) {
    const values = Array.isArray(raw) ? raw : [raw];
    const path = keyPath(name);
    values.forEach((value, occurrence) => place(root, path, value, occurrence));
  }
  return root;
}

/** An integer within [min, max], or the digits of one as a form sends it. */
export function formInt(min: number, max: number) {
  return z
    .union([z.number(), z.string().regex(/^-?\d+$/, 'expected an integer').transform(Number)])
    .pipe(z.number().int().min(min).max(max));
}

/** A boolean, or "true"/"false" as a form sends it (made where a body's schema is made, as formInt). */
export function formBool() {
  return z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]);
}
