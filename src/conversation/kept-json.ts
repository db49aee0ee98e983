// A JSON value kept to be compared with a value met later: equal, value for value and key for key
// in the same order, the new one stringifies alike and decodes alike, so what was made of the kept
// one serves it. Comparing costs a quarter of stringifying, and allocates nothing.
import { ENTRY_BYTES, textBytes } from './caches.js';
import { isPlainObject } from './schema-walk.js';

/** A JSON value kept to be compared with a new one: an object's keys listed once, in their order. */
export type Kept = string | number | boolean | null | undefined | KeptNode;

/** An array (no keys) or an object, its values in the order of its keys. */
export class KeptNode {
  constructor(
    readonly keys: readonly string[] | undefined,
    readonly values: readonly Kept[],
  ) {}
}

/** A value JSON.stringify may write otherwise than its plain keys (a `toJSON`, a Map, a function). */
export const UNKEPT = Symbol('unkept');

export function kept(value: unknown): Kept | typeof UNKEPT {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === undefined) return value;
  if (typeof value !== 'object') return UNKEPT;
  if (Array.isArray(value)) {
    const items = value.map(kept);
    return items.includes(UNKEPT) ? UNKEPT : new KeptNode(undefined, items as Kept[]);
  }
  if (!isPlainObject(value)) return UNKEPT;
  const keys = Object.keys(value);
  const values = keys.map((key) => kept(value[key]));
  return values.includes(UNKEPT) ? UNKEPT : new KeptNode(keys, values as Kept[]);
}

/**
 * Whether `value` stringifies as the kept value did: the same keys in the same order, the same
 * leaves. Tools are decoded from JSON, so an object is a plain one, not checked again here (its
 * prototype looked up at each object took a third of the comparison): a plain object inherits
 * nothing enumerable, and `for...in` meets its own keys in Object.keys' order.
 */
export function same(value: unknown, known: Kept): boolean {
  if (!(known instanceof KeptNode)) return value === known;
  if (value === null || typeof value !== 'object') return false;
  const { keys, values } = known;
  if (keys === undefined) {
    if (!Array.isArray(value) || value.length !== values.length) return false;
    for (let index = 0; index < values.length; index++) if (!same(value[index], values[index])) return false;
    return true;
  }
  if (Array.isArray(value)) return false;
  const entries = value as Record<string, unknown>;
  let index = 0;
  for (const key in entries) {
    if (key !== keys[index] || !same(entries[key], values[index])) return false;
    index++;
  }
  return index === keys.length;
}

/**
 * Where a list of tools met lately is looked for: by its length and first name, which an agent's
 * list keeps from turn to turn; undefined for anything but a list of at least one.
 */
export function listKey(list: unknown): string | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const first: unknown = list[0];
  const name = first !== null && typeof first === 'object' ? (first as { name?: unknown }).name : undefined;
  return `${list.length}:${typeof name === 'string' ? name : ''}`;
}

/** About what a kept value holds: its texts, and an entry's room for each node. */
export function keptBytes(value: Kept): number {
  if (typeof value === 'string') return textBytes(value);
  if (!(value instanceof KeptNode)) return 0;
  return value.values.reduce<number>((bytes, child, index) => bytes + keptBytes(child) + textBytes(value.keys?.[index] ?? ''), ENTRY_BYTES);
}
