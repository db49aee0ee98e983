// Schema-true JSON for structured outputs and tool-call arguments: a seeded value that validates
// against the JSON Schema (OpenAI, Anthropic) or OpenAPI-style schema (Gemini) the client sent.
// Leaf strings and numbers come from schema-scalars; this file walks the structure.
// Not understood (the value may then fail): not, if/then/else, contains, patternProperties,
// propertyNames, dependentRequired/dependentSchemas, maxProperties below the declared properties,
// and $ref beyond this document (remote, $id, $anchor). allOf merges properties and required;
// for any other keyword the later branch wins.
import { fakerLater } from './faker.js';
import type { Random } from './random.js';
import { MAX_GENERATED_VALUES } from './limits.js';
import { generateNumber, generateString, toNumber } from './schema-scalars.js';
import {
  arrayParts,
  candidateTypes,
  expandRef,
  isNode,
  isRecord,
  MAX_DEPTH,
  mergeAllOf,
  put,
  startWalk,
  track,
  typeNames,
  withParent,
  type SchemaNode as Node,
  type WalkContext,
} from './schema-walk.js';
import type { JsonSchema } from './types.js';

interface Context extends WalkContext {
  random: Random;
  /** Values generated so far for this reply (a `$ref` or a branch tried counts one more), shared by the walk. */
  made: { values: number };
}

// Arrays without minItems/maxItems get 1 to this many items.
const DEFAULT_MAX_ITEMS = 3;
const UNIQUE_ATTEMPTS = 10;

// One instance, reseeded from `random` on every call; safe because generation is synchronous.
const faker = fakerLater();

export function generateFromSchema(schema: JsonSchema, random: Random): unknown {
  faker().seed(random.int(0, 0xffffffff));
  return generate(schema, { ...startWalk(schema), random, made: { values: 0 } }, '');
}

/** `name` is the property (or, for array items, the singular property) the value is for. */
function generate(node: unknown, parent: Context, name: string): unknown {
  if (node === false || parent.depth > MAX_DEPTH) return null;
  // true, and anything malformed where a schema should be, allows any value.
  const schema = isRecord(node) ? node : {};
  const context = { ...parent, depth: parent.depth + 1 };
  context.made.values += 1;
  if (typeof schema.$ref === 'string') return generate(expandRef(schema, context.root), track(context, schema.$ref), name);
  if (Array.isArray(schema.allOf)) return generate(mergeAllOf(schema, schema.allOf, context.root), context, name);
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
      return generateString(schema, name, context.random, faker());
  }
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

/** A declared type, preferring a non-null one; null only when shallow or nothing else is allowed. */
function chooseType(schema: JsonSchema, context: Context): string {
  return context.random.pick(candidateTypes(schema, context.shallow));
}

// ---- containers ----

/**
 * Whether the reply holds as many values as the generation budget allows as a minimum: the
 * budget checked the minimums at decode, and from here on containers get no more than theirs
 * (an array without minItems one item, not up to three), so what is added beyond the minimums
 * stays bounded however deep they nest.
 */
function full(context: Context): boolean {
  return context.made.values >= MAX_GENERATED_VALUES;
}

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
  const isMap = isRecord(schema.additionalProperties) && keys.length === 0 && !context.shallow && !full(context);
  const wanted = Math.max(toNumber(schema.minProperties) ?? 0, isMap ? context.random.int(1, 2) : 0);
  const suffixes = new Map<string, number>();
  for (let count = Object.keys(out).length; count < wanted; count += 1) {
    const key = freshKey(out, suffixes);
    put(out, key, generate(extra, context, key));
  }
  return out;
}

/** A noun not yet taken, else the noun with the next free suffix (`suffixes` remembers it, so many entries stay linear). */
function freshKey(taken: Record<string, unknown>, suffixes: Map<string, number>): string {
  const word = faker().word.noun().replace(/\W+/g, '_');
  let suffix = suffixes.get(word) ?? 1;
  let key = suffix === 1 ? word : `${word}_${suffix}`;
  while (Object.hasOwn(taken, key)) {
    suffix += 1;
    key = `${word}_${suffix}`;
  }
  suffixes.set(word, suffix + 1);
  return key;
}

/** Tuples (prefixItems, or draft-07 array-form items) first, then `items` up to the length chosen. */
function generateArray(schema: JsonSchema, context: Context, name: string): unknown[] {
  const { tuple, rest } = arrayParts(schema);
  const ceiling = Math.min(toNumber(schema.maxItems) ?? Infinity, rest === false ? tuple.length : Infinity);
  const floor = Math.max(toNumber(schema.minItems) ?? 0, context.shallow ? 0 : Math.max(1, tuple.length));
  const low = Math.min(floor, ceiling);
  const count = context.shallow ? low : context.random.int(low, Math.min(ceiling, Math.max(low, DEFAULT_MAX_ITEMS)));
  const itemName = singular(name);
  const items: unknown[] = [];
  // Only unique arrays keep their items' JSON: a stringify per item is most of a long array's cost.
  const seen = schema.uniqueItems === true ? new Set<string>() : undefined;
  for (let index = 0; index < count && (index < low || !full(context)); index += 1) {
    const itemSchema = seen ? unseenOnly(tuple[index] ?? rest, seen) : (tuple[index] ?? rest);
    let item = generate(itemSchema, context, itemName);
    for (let attempt = 1; seen?.has(JSON.stringify(item)) && attempt < UNIQUE_ATTEMPTS; attempt += 1) {
      item = generate(itemSchema, context, itemName);
    }
    if (seen) {
      const json = JSON.stringify(item);
      // A repeat that would not go away: a shorter array beats a non-unique one.
      if (seen.has(json)) break;
      seen.add(json);
    }
    items.push(item);
  }
  return items;
}

/** For unique enum items, the enum without the values already used, so repeats cannot happen. */
function unseenOnly(node: Node, seen: ReadonlySet<string>): Node {
  if (!isRecord(node) || !Array.isArray(node.enum)) return node;
  const unseen = node.enum.filter((value) => !seen.has(JSON.stringify(value)));
  return unseen.length > 0 ? { ...node, enum: unseen } : node;
}

/** cities → city, addresses → address, tags → tag (status stays): item names for the hint tables. */
function singular(name: string): string {
  return name.replace(/ies$/, 'y').replace(/(ss|x|ch|sh)es$/, '$1').replace(/([^su])s$/, '$1');
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
