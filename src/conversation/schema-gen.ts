// Schema-true JSON for structured outputs and tool-call arguments: a seeded value that validates
// against the JSON Schema (OpenAI, Anthropic) or OpenAPI-style schema (Gemini) the client sent.
// Leaf strings and numbers come from schema-scalars; this file walks the structure.
// Not understood (the value may then fail): not, if/then/else, contains, patternProperties,
// propertyNames, dependentRequired/dependentSchemas, maxProperties below the declared properties,
// and $ref beyond this document (remote, $id, $anchor). allOf merges properties and required;
// for any other keyword the later branch wins.
import { createFaker } from './faker.js';
import type { Random } from './random.js';
import { generateNumber, generateString, toNumber } from './schema-scalars.js';
import type { JsonSchema } from './types.js';

/** A schema or, as JSON Schema allows wherever a schema goes, true (anything) or false (nothing). */
type Node = JsonSchema | boolean;

interface Context {
  root: JsonSchema;
  random: Random;
  /** How often each $ref was expanded on the path here. */
  expansions: Readonly<Record<string, number>>;
  /** Set below a $ref expanded too often: emit the least the schema allows, so recursion ends. */
  shallow: boolean;
  depth: number;
}

// A recursive $ref is expanded this many times on one path before values turn shallow.
const MAX_EXPANSIONS = 2;
// Only schemas that admit no finite value (a required, non-nullable self-reference) get this deep.
const MAX_DEPTH = 64;
// Arrays without minItems/maxItems get 1 to this many items.
const DEFAULT_MAX_ITEMS = 3;
const UNIQUE_ATTEMPTS = 10;
const OBJECT_KEYS = ['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties'];
const ARRAY_KEYS = ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'];
const NUMBER_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

// One instance, reseeded from `random` on every call; safe because generation is synchronous.
const faker = createFaker();

export function generateFromSchema(schema: JsonSchema, random: Random): unknown {
  faker.seed(random.int(0, 0xffffffff));
  return generate(schema, { root: schema, random, expansions: {}, shallow: false, depth: 0 }, '');
}

/** `name` is the property (or, for array items, the singular property) the value is for. */
function generate(node: unknown, parent: Context, name: string): unknown {
  if (node === false || parent.depth > MAX_DEPTH) return null;
  // true, and anything malformed where a schema should be, allows any value.
  const schema = isRecord(node) ? node : {};
  const context = { ...parent, depth: parent.depth + 1 };
  if (typeof schema.$ref === 'string') return generate(expandRef(schema, context.root), track(context, schema.$ref), name);
  if (Array.isArray(schema.allOf)) return generate(mergeAllOf(schema, schema.allOf, context), context, name);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pickEnum(schema.enum, context);
  if (Array.isArray(schema.anyOf) && schema.anyOf.length > 0) return anyOf(schema, schema.anyOf, context, name);
  if (Array.isArray(schema.oneOf) && schema.oneOf.length > 0) return oneOf(schema, schema.oneOf, context, name);
  switch (chooseType(schema, context)) {
    case 'null':
      return null;
    case 'boolean':
      return context.random.chance(0.5);
    case 'integer':
      return generateNumber(schema, name, true, context.random);
    case 'number':
      return generateNumber(schema, name, false, context.random);
    case 'object':
      return generateObject(schema, context);
    case 'array':
      return generateArray(schema, context, name);
    default:
      return generateString(schema, name, context.random, faker);
  }
}

// ---- references and composition ----

/** The $ref target with the schema's other keywords laid over it (2020-12 allows siblings). */
function expandRef(schema: JsonSchema, root: JsonSchema): Node {
  const { $ref, ...siblings } = schema;
  const target = resolve(root, String($ref));
  if (target === undefined || target === true) return siblings;
  return target === false ? false : merge(target, siblings);
}

/** Local references only (#, #/$defs/x, #/definitions/x, any JSON pointer); others give undefined. */
function resolve(root: JsonSchema, ref: string): Node | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const token of ref.slice(1).split('/').slice(1)) {
    const key = safeDecode(token).replace(/~1/g, '/').replace(/~0/g, '~');
    node = (isRecord(node) || Array.isArray(node)) && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return isNode(node) ? node : undefined;
}

function safeDecode(token: string): string {
  try {
    return decodeURIComponent(token);
  } catch {
    return token;
  }
}

function track(context: Context, ref: string): Context {
  const count = (context.expansions[ref] ?? 0) + 1;
  return { ...context, expansions: { ...context.expansions, [ref]: count }, shallow: context.shallow || count > MAX_EXPANSIONS };
}

function mergeAllOf(schema: JsonSchema, branches: unknown[], context: Context): JsonSchema {
  const { allOf: _allOf, ...rest } = schema;
  return branches.reduce<JsonSchema>((merged, branch) => {
    const expanded = isRecord(branch) && typeof branch.$ref === 'string' ? expandRef(branch, context.root) : branch;
    return isRecord(expanded) ? merge(merged, expanded) : merged;
  }, rest);
}

/** Both schemas at once, for allOf and for a branch with its parent's keywords: properties meet, required adds up. */
function merge(first: JsonSchema, second: JsonSchema): JsonSchema {
  const merged: JsonSchema = { ...first, ...second };
  if (isRecord(first.properties) && isRecord(second.properties)) {
    const properties: JsonSchema = { ...first.properties };
    for (const [key, value] of Object.entries(second.properties)) {
      put(properties, key, Object.hasOwn(properties, key) ? { allOf: [properties[key], value] } : value);
    }
    merged.properties = properties;
  }
  if (Array.isArray(first.required) && Array.isArray(second.required)) {
    merged.required = [...new Set([...first.required, ...second.required])];
  }
  return merged;
}

// ---- choices ----

function pickEnum(values: readonly unknown[], context: Context): unknown {
  const present = values.filter((value) => value !== null);
  return context.random.pick(present.length > 0 && !context.shallow ? present : values);
}

function anyOf(schema: JsonSchema, branches: unknown[], context: Context, name: string): unknown {
  const { anyOf: _anyOf, ...rest } = schema;
  const [branch] = preferred(branches, context);
  return generate(withParent(rest, branch), context, name);
}

/**
 * oneOf needs a value that no other branch accepts. Branches are tried in turn and the first
 * value every other branch clearly rejects (by type, const/enum, required or closed properties,
 * as discriminated unions differ) wins; failing that, the first value.
 */
function oneOf(schema: JsonSchema, branches: unknown[], context: Context, name: string): unknown {
  const { oneOf: _oneOf, ...rest } = schema;
  const ordered = preferred(branches, context);
  let first: unknown;
  for (const [index, branch] of ordered.entries()) {
    const value = generate(withParent(rest, branch), context, name);
    if (index === 0) first = value;
    if (ordered.every((other) => other === branch || rejects(other, value, context.root, 0))) return value;
  }
  return first;
}

function withParent(parent: JsonSchema, branch: unknown): Node {
  if (branch === false) return false;
  return isRecord(branch) ? merge(parent, branch) : parent;
}

/**
 * Branches in seeded order, the null branch last; when shallow, the branches that end recursion
 * first (null, then those without a $ref).
 */
function preferred(branches: readonly unknown[], context: Context): unknown[] {
  const rank = (branch: unknown): number => {
    const isNull = isRecord(branch) && (String(branch.type).toLowerCase() === 'null' || branch.const === null);
    if (!context.shallow) return isNull ? 1 : 0;
    return isNull ? 0 : JSON.stringify(branch).includes('"$ref"') ? 2 : 1;
  };
  const shuffled = [...branches];
  for (let i = shuffled.length - 1; i > 0; i -= 1) {
    const j = context.random.int(0, i);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  return shuffled.sort((a, b) => rank(a) - rank(b));
}

/** True when `value` certainly fails `node`; false when it may pass (the check is partial). */
function rejects(node: unknown, value: unknown, root: JsonSchema, depth: number): boolean {
  if (node === false) return true;
  if (!isRecord(node) || depth > MAX_DEPTH) return false;
  const schema = typeof node.$ref === 'string' ? expandRef(node, root) : node;
  if (!isRecord(schema)) return schema === false;
  if ('const' in schema && !sameJson(schema.const, value)) return true;
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameJson(option, value))) return true;
  const types = typeNames(schema.type);
  if (schema.nullable === true) types.push('null');
  if (types.length > 0 && !types.some((type) => hasType(value, type))) return true;
  if (!isRecord(value)) return false;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required) && schema.required.some((key) => typeof key === 'string' && !Object.hasOwn(value, key))) return true;
  if (schema.additionalProperties === false && Object.keys(value).some((key) => !Object.hasOwn(properties, key))) return true;
  return Object.entries(properties).some(([key, sub]) => Object.hasOwn(value, key) && rejects(sub, value[key], root, depth + 1));
}

function hasType(value: unknown, type: string): boolean {
  if (type === 'null') return value === null;
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'object') return isRecord(value);
  if (type === 'array') return Array.isArray(value);
  return typeof value === type;
}

// ---- types ----

/** Lower-cased type names: JSON Schema's "string" or ["string","null"], Gemini's "STRING". */
function typeNames(type: unknown): string[] {
  const list = Array.isArray(type) ? type : type === undefined ? [] : [type];
  return list.filter((name): name is string => typeof name === 'string').map((name) => name.toLowerCase());
}

/** A declared type, preferring a non-null one; null only when shallow or nothing else is allowed. */
function chooseType(schema: JsonSchema, context: Context): string {
  const declared = typeNames(schema.type);
  const concrete = declared.filter((type) => type !== 'null');
  const nullable = declared.includes('null') || schema.nullable === true;
  if (nullable && (context.shallow || (declared.length > 0 && concrete.length === 0))) return 'null';
  if (concrete.length > 0) return context.random.pick(concrete);
  if (OBJECT_KEYS.some((key) => key in schema)) return 'object';
  if (ARRAY_KEYS.some((key) => key in schema)) return 'array';
  if (NUMBER_KEYS.some((key) => key in schema)) return 'number';
  return 'string';
}

// ---- containers ----

/**
 * Every declared property (strict structured outputs require them all), in Gemini's
 * propertyOrdering when given; shallow values keep only the required ones.
 */
function generateObject(schema: JsonSchema, context: Context): Record<string, unknown> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : [];
  const ordering = Array.isArray(schema.propertyOrdering) ? schema.propertyOrdering.filter((key) => Object.hasOwn(properties, key)) : [];
  const keys = [...new Set([...ordering, ...Object.keys(properties)])];
  const extra: Node = isNode(schema.additionalProperties) ? schema.additionalProperties : true;
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    if (!context.shallow || required.includes(key)) put(out, key, generate(properties[key], context, key));
  }
  for (const key of required) if (!Object.hasOwn(out, key)) put(out, key, generate(extra, context, key));
  if (extra === false) return out;
  // A map schema (additionalProperties only) gets an entry or two, so it does not look empty.
  const isMap = isRecord(schema.additionalProperties) && keys.length === 0 && !context.shallow;
  const wanted = Math.max(toNumber(schema.minProperties) ?? 0, isMap ? context.random.int(1, 2) : 0);
  while (Object.keys(out).length < wanted) {
    const key = freshKey(out);
    put(out, key, generate(extra, context, key));
  }
  return out;
}

function freshKey(taken: Record<string, unknown>): string {
  const word = faker.word.noun().replace(/\W+/g, '_');
  let key = word;
  for (let suffix = 2; Object.hasOwn(taken, key); suffix += 1) key = `${word}_${suffix}`;
  return key;
}

/** Tuples (prefixItems, or draft-07 array-form items) first, then `items` up to the length chosen. */
function generateArray(schema: JsonSchema, context: Context, name: string): unknown[] {
  const tuple = (Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : []).filter(isNode);
  const restSource = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  const rest: Node = isNode(restSource) ? restSource : true;
  const ceiling = Math.min(toNumber(schema.maxItems) ?? Infinity, rest === false ? tuple.length : Infinity);
  const floor = Math.max(toNumber(schema.minItems) ?? 0, context.shallow ? 0 : Math.max(1, tuple.length));
  const low = Math.min(floor, ceiling);
  const count = context.shallow ? low : context.random.int(low, Math.min(ceiling, Math.max(low, DEFAULT_MAX_ITEMS)));
  const itemName = singular(name);
  const items: unknown[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < count; index += 1) {
    const itemSchema = unseenOnly(tuple[index] ?? rest, seen, schema.uniqueItems === true);
    let item = generate(itemSchema, context, itemName);
    for (let attempt = 1; schema.uniqueItems === true && seen.has(JSON.stringify(item)) && attempt < UNIQUE_ATTEMPTS; attempt += 1) {
      item = generate(itemSchema, context, itemName);
    }
    // A repeat that would not go away: a shorter array beats a non-unique one.
    if (schema.uniqueItems === true && seen.has(JSON.stringify(item))) break;
    seen.add(JSON.stringify(item));
    items.push(item);
  }
  return items;
}

/** For unique enum items, the enum without the values already used, so repeats cannot happen. */
function unseenOnly(node: Node, seen: ReadonlySet<string>, unique: boolean): Node {
  if (!unique || !isRecord(node) || !Array.isArray(node.enum)) return node;
  const unseen = node.enum.filter((value) => !seen.has(JSON.stringify(value)));
  return unseen.length > 0 ? { ...node, enum: unseen } : node;
}

/** cities → city, addresses → address, tags → tag (status stays): item names for the hint tables. */
function singular(name: string): string {
  return name.replace(/ies$/, 'y').replace(/(ss|x|ch|sh)es$/, '$1').replace(/([^su])s$/, '$1');
}

// ---- small helpers ----

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNode(value: unknown): value is Node {
  return typeof value === 'boolean' || isRecord(value);
}

/** Sets a key even when it is "__proto__", which plain assignment would treat as the prototype. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
