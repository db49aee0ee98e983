// The JSON text of a request's tools, for their token count. An agent sends the same 25 tools with
// every request, and JSON.stringify made their 29 KB again each time (75 µs of its request). A list
// equal to one met lately, value for value and key for key in the same order, stringifies alike,
// so it is given the text made then: comparing costs a quarter of stringifying, and allocates nothing.
import { textBytes } from './caches.js';
import { Memo } from './remember.js';
import { isPlainObject } from './schema-walk.js';
import type { ToolDef } from './types.js';

/** A JSON value kept to be compared with a new one: an object's keys listed once, in their order. */
type Kept = string | number | boolean | null | undefined | KeptNode;

/** An array (no keys) or an object, its values in the order of its keys. */
class KeptNode {
  constructor(
    readonly keys: readonly string[] | undefined,
    readonly values: readonly Kept[],
  ) {}
}

/** A value JSON.stringify may write otherwise than its plain keys (a `toJSON`, a Map, a function). */
const UNKEPT = Symbol('unkept');

function kept(value: unknown): Kept | typeof UNKEPT {
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
function same(value: unknown, known: Kept): boolean {
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

interface KeptTools {
  tools: KeptNode;
  json: string;
}

/** Lists met lately, by their length and first name; the kept values hold about what their text does. */
const lists = new Memo<KeptTools>('tokens', 16, ({ json }) => 2 * textBytes(json));

/** `JSON.stringify(tools)`: the very text made for an equal list met lately, if any. */
export function toolsJson(tools: readonly ToolDef[]): string {
  const key = `${tools.length}:${tools[0]?.name ?? ''}`;
  const known = lists.get(key);
  if (known !== undefined && same(tools, known.tools)) return known.json;
  const json = JSON.stringify(tools);
  const value = kept(tools);
  if (value instanceof KeptNode) lists.set(key, { tools: value, json });
  return json;
}
