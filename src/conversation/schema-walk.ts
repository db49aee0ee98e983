// Walking a client's JSON Schema the way generation does: local $refs with their siblings, allOf
// merged, a branch with its parent's keywords, and the type a schema declares or implies. Shared
// by the generator (schema-gen) and the budget that refuses a schema before any generation.
import type { JsonSchema } from './types.js';

/** A schema or, as JSON Schema allows wherever a schema goes, true (anything) or false (nothing). */
export type SchemaNode = JsonSchema | boolean;

/** Where a walk is: how often each $ref was expanded on the path here, and how deep it is. */
export interface WalkContext {
  root: JsonSchema;
  expansions: Readonly<Record<string, number>>;
  /** Set below a $ref expanded too often: the least the schema allows is emitted, so recursion ends. */
  shallow: boolean;
  depth: number;
}

// A recursive $ref is expanded this many times on one path before values turn shallow.
const MAX_EXPANSIONS = 2;
// Only schemas that admit no finite value (a required, non-nullable self-reference) get this deep.
export const MAX_DEPTH = 64;

const OBJECT_KEYS = ['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties'];
const ARRAY_KEYS = ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'];
const NUMBER_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

export function startWalk(root: JsonSchema): WalkContext {
  return { root, expansions: {}, shallow: false, depth: 0 };
}

/** The $ref target with the schema's other keywords laid over it (2020-12 allows siblings). */
export function expandRef(schema: JsonSchema, root: JsonSchema): SchemaNode {
  const { $ref, ...siblings } = schema;
  const target = resolve(root, String($ref));
  if (target === undefined || target === true) return siblings;
  return target === false ? false : merge(target, siblings);
}

/** Local references only (#, #/$defs/x, #/definitions/x, any JSON pointer); others give undefined. */
function resolve(root: JsonSchema, ref: string): SchemaNode | undefined {
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

/** The context one $ref expansion deeper; past MAX_EXPANSIONS of the same ref it turns shallow. */
export function track<C extends WalkContext>(context: C, ref: string): C {
  const count = (context.expansions[ref] ?? 0) + 1;
  return { ...context, expansions: { ...context.expansions, [ref]: count }, shallow: context.shallow || count > MAX_EXPANSIONS };
}

export function mergeAllOf(schema: JsonSchema, branches: unknown[], root: JsonSchema): JsonSchema {
  const { allOf: _allOf, ...rest } = schema;
  return branches.reduce<JsonSchema>((merged, branch) => {
    const expanded = isRecord(branch) && typeof branch.$ref === 'string' ? expandRef(branch, root) : branch;
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

/** A branch of anyOf/oneOf with the keywords of the schema around it. */
export function withParent(parent: JsonSchema, branch: unknown): SchemaNode {
  if (branch === false) return false;
  return isRecord(branch) ? merge(parent, branch) : parent;
}

/** Lower-cased type names: JSON Schema's "string" or ["string","null"], Gemini's "STRING". */
export function typeNames(type: unknown): string[] {
  const list = Array.isArray(type) ? type : type === undefined ? [] : [type];
  return list.filter((name): name is string => typeof name === 'string').map((name) => name.toLowerCase());
}

/** The types a value may take: the declared ones (null only when shallow or nothing else is allowed), or the one the keywords imply. */
export function candidateTypes(schema: JsonSchema, shallow: boolean): string[] {
  const declared = typeNames(schema.type);
  const concrete = declared.filter((type) => type !== 'null');
  const nullable = declared.includes('null') || schema.nullable === true;
  if (nullable && (shallow || (declared.length > 0 && concrete.length === 0))) return ['null'];
  if (concrete.length > 0) return concrete;
  if (OBJECT_KEYS.some((key) => key in schema)) return ['object'];
  if (ARRAY_KEYS.some((key) => key in schema)) return ['array'];
  if (NUMBER_KEYS.some((key) => key in schema)) return ['number'];
  return ['string'];
}

/** Tuples (prefixItems, or draft-07 array-form items) and the schema of the items after them. */
export function arrayParts(schema: JsonSchema): { tuple: SchemaNode[]; rest: SchemaNode } {
  const tuple = (Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : []).filter(isNode);
  const restSource = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  return { tuple, rest: isNode(restSource) ? restSource : true };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object as JSON.parse makes one: a record whose prototype is Object's (or none). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

export function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'boolean' || isRecord(value);
}

/** Sets a key even when it is "__proto__", which plain assignment would treat as the prototype. */
export function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
