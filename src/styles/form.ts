// Multipart forms as the SDKs write them: nested values spelled with brackets
// (`input_reference[image_url]`, `metadata[content][][type]`) and every scalar a string. These
// turn such a form back into the JSON body the same endpoint takes, so one schema checks both.
import { z } from 'zod';

type Fields = Record<string, string | string[]>;
type Tree = Record<string, unknown>;

/** `a[b][][c]` -> ['a', 'b', '', 'c']; a name without brackets is one key. */
function keyPath(name: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  if (!match) return [name];
  return [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
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
    container[slot] ??= nextIsIndex ? [] : {};
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

/** A boolean, or "true"/"false" as a form sends it. */
export const formBool = z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]);
