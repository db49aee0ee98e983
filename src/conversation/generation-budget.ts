// The generation budget: a client's schema (structured output, a required tool's parameters) that
// asks for more than the mock generates is refused when the request is decoded, before any work.
// The walk follows schema-gen (refs, allOf, branches, shallow recursion) but sizes each array
// once and multiplies by its count, so it costs the size of the schema, not of the value. It
// bounds both the JSON's characters and its values: generating costs about a microsecond a value,
// and a megabyte of one-digit integers is 360,000 of them.
import { failure, type MockError } from './errors.js';
import { forcedTools } from './forced-tool.js';
import { MAX_GENERATED_ITEMS, MAX_GENERATED_JSON, MAX_GENERATED_STRING, MAX_GENERATED_VALUES, MAX_SCHEMA_STEPS } from './limits.js';
import { shortestMatch } from './pattern-gen.js';
import { toNumber } from './schema-scalars.js';
import {
  arrayParts,
  candidateTypes,
  expandRef,
  isNode,
  isRecord,
  MAX_DEPTH,
  mergeAllOf,
  startWalk,
  track,
  withParent,
  type SchemaNode,
  type WalkContext,
} from './schema-walk.js';
import type { ChatRequest, JsonSchema } from './types.js';

interface Walk extends WalkContext {
  steps: { count: number };
}

// What the least of each leaf comes to in JSON: a word in quotes, a digit, true, null.
const LEAF_SIZE: Record<string, number> = { string: 5, number: 1, integer: 1, boolean: 4, null: 4 };
// `"key":` and a comma around each property.
const ENTRY_OVERHEAD = 4;
const constSizes = new WeakMap<object, number>();

/** The least the generator emits for a schema: characters of JSON, and values (a leaf, array or object each). */
interface Minimum {
  json: number;
  values: number;
}

const leaf = (json: number): Minimum => ({ json, values: 1 });

/** Where the request's schemas sit in its style's body, for the error's `param`. */
export interface SchemaFields {
  format?: string;
  /** The field of the tool at this index of `request.tools`. */
  tool(index: number): string;
}

/** Throws a 400 naming the schema path and the limit when a schema the reply is generated from asks for too much. */
export function checkGenerationBudget(request: ChatRequest, fields: SchemaFields): void {
  if (request.responseFormat.type === 'json_schema' && fields.format) checkSchema(request.responseFormat.schema, fields.format);
  const forced = forcedTools(request.toolChoice);
  request.tools.forEach((tool, index) => {
    if (forced === 'any' || forced?.includes(tool.name)) checkSchema(tool.parameters, fields.tool(index));
  });
}

export function checkSchema(schema: JsonSchema, field: string): void {
  checked(minimumSize(schema, { ...startWalk(schema), steps: { count: 0 } }, field), field);
}

function refuse(path: string, what: string): MockError {
  return failure('generation_budget_exceeded', `Invalid schema at '${path}': ${what}.`, { param: path });
}

/** Throws when the JSON or its values pass their bound. */
function checked(minimum: Minimum, path: string): Minimum {
  if (minimum.json > MAX_GENERATED_JSON) {
    throw refuse(path, `asks for at least ${minimum.json} characters of JSON (nested minimums multiply); the mock generates at most ${MAX_GENERATED_JSON}`);
  }
  if (minimum.values > MAX_GENERATED_VALUES) {
    throw refuse(path, `asks for at least ${minimum.values} values (nested minimums multiply); the mock generates at most ${MAX_GENERATED_VALUES}`);
  }
  return minimum;
}

/** The fewest JSON characters and values the generator can emit for `node`. */
function minimumSize(node: unknown, parent: Walk, path: string): Minimum {
  parent.steps.count += 1;
  if (parent.steps.count > MAX_SCHEMA_STEPS) throw refuse(path, `is too complex: generating from it walks more than ${MAX_SCHEMA_STEPS} schema nodes`);
  if (node === false || parent.depth > MAX_DEPTH) return leaf(LEAF_SIZE.null!);
  const schema = isRecord(node) ? node : {};
  const walk = { ...parent, depth: parent.depth + 1 };
  if (typeof schema.$ref === 'string') return minimumSize(expandRef(schema, walk.root), track(walk, schema.$ref), path);
  if (Array.isArray(schema.allOf)) return minimumSize(mergeAllOf(schema, schema.allOf, walk.root), walk, path);
  if ('const' in schema) return leaf(jsonSize(schema.const));
  // A loop, not Math.max(...): a client's enum may hold more values than a call takes arguments.
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return leaf(schema.enum.reduce<number>((most, value) => Math.max(most, jsonSize(value)), 0));
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.length > 0) {
      const { [keyword]: _branches, ...rest } = schema;
      // Any branch may be the one generated.
      return largest(branches.map((branch, i) => minimumSize(withParent(rest, branch), walk, `${path}.${keyword}[${i}]`)));
    }
  }
  return largest(candidateTypes(schema, walk.shallow).map((type) => typeSize(type, schema, walk, path)));
}

function typeSize(type: string, schema: JsonSchema, walk: Walk, path: string): Minimum {
  if (type === 'object') return objectSize(schema, walk, path);
  if (type === 'array') return arraySize(schema, walk, path);
  if (type === 'string' || !(type in LEAF_SIZE)) return leaf(stringSize(schema, path));
  return leaf(LEAF_SIZE[type]!);
}

function stringSize(schema: JsonSchema, path: string): number {
  const minLength = toNumber(schema.minLength) ?? 0;
  if (minLength > MAX_GENERATED_STRING) {
    throw refuse(`${path}.minLength`, `asks for ${minLength} characters in a string; the mock generates at most ${MAX_GENERATED_STRING}`);
  }
  const shortest = typeof schema.pattern === 'string' ? (shortestMatch(schema.pattern) ?? 0) : 0;
  if (shortest > MAX_GENERATED_STRING) {
    throw refuse(`${path}.pattern`, `its shortest match has ${shortest} characters; the mock generates at most ${MAX_GENERATED_STRING} in a string`);
  }
  return Math.max(minLength + 2, shortest + 2, LEAF_SIZE.string!);
}

/** Every declared property (shallow: the required ones), then entries up to minProperties. */
function objectSize(schema: JsonSchema, walk: Walk, path: string): Minimum {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : [];
  const extra: SchemaNode = isNode(schema.additionalProperties) ? schema.additionalProperties : true;
  const total = leaf(2);
  let entries = 0;
  const add = (key: string, size: Minimum) => {
    total.json += key.length + ENTRY_OVERHEAD + size.json;
    total.values += size.values;
    entries += 1;
    checked(total, path);
  };
  for (const key of Object.keys(properties)) {
    if (!walk.shallow || required.includes(key)) add(key, minimumSize(properties[key], walk, `${path}.properties.${key}`));
  }
  for (const key of required) if (!Object.hasOwn(properties, key)) add(key, minimumSize(extra, walk, `${path}.additionalProperties`));
  const minProperties = toNumber(schema.minProperties) ?? 0;
  if (minProperties > MAX_GENERATED_ITEMS) {
    throw refuse(`${path}.minProperties`, `asks for ${minProperties} object entries; the mock generates at most ${MAX_GENERATED_ITEMS}`);
  }
  const wanted = extra === false ? 0 : minProperties - entries;
  if (wanted > 0) {
    const each = minimumSize(extra, walk, `${path}.additionalProperties`);
    total.json += wanted * (each.json + ENTRY_OVERHEAD + LEAF_SIZE.string!);
    total.values += wanted * each.values;
    checked(total, `${path}.minProperties`);
  }
  return total;
}

/** The tuple, then the rest up to the count the generator starts from (minItems, at least one). */
function arraySize(schema: JsonSchema, walk: Walk, path: string): Minimum {
  const minItems = toNumber(schema.minItems) ?? 0;
  if (minItems > MAX_GENERATED_ITEMS) {
    throw refuse(`${path}.minItems`, `asks for ${minItems} array items; the mock generates at most ${MAX_GENERATED_ITEMS}`);
  }
  const { tuple, rest } = arrayParts(schema);
  const ceiling = Math.min(toNumber(schema.maxItems) ?? Infinity, rest === false ? tuple.length : Infinity);
  const count = Math.min(Math.max(minItems, walk.shallow ? 0 : Math.max(1, tuple.length)), ceiling);
  if (count > MAX_GENERATED_ITEMS) {
    throw refuse(`${path}.prefixItems`, `asks for ${count} array items; the mock generates at most ${MAX_GENERATED_ITEMS}`);
  }
  const total = leaf(2);
  const fromTuple = Math.min(count, tuple.length);
  const addItems = (item: Minimum, times: number) => {
    total.json += times * (item.json + 1);
    total.values += times * item.values;
  };
  for (let i = 0; i < fromTuple; i += 1) addItems(minimumSize(tuple[i], walk, `${path}.prefixItems[${i}]`), 1);
  if (count > fromTuple) addItems(minimumSize(rest, walk, `${path}.items`), count - fromTuple);
  return checked(total, path);
}

/**
 * The most of each measure: any branch or type may be the one generated. A loop, not
 * Math.max(...): a client's schema may hold more branches than a call takes arguments.
 */
function largest(minimums: readonly Minimum[]): Minimum {
  return minimums.reduce((most, size) => ({ json: Math.max(most.json, size.json), values: Math.max(most.values, size.values) }), { json: 0, values: 0 });
}

/** A const or enum value is copied as it is; an object's size is measured once. */
function jsonSize(value: unknown): number {
  if (typeof value !== 'object' || value === null) return String(value).length + (typeof value === 'string' ? 2 : 0);
  let size = constSizes.get(value);
  if (size === undefined) {
    size = JSON.stringify(value)?.length ?? 0;
    constSizes.set(value, size);
  }
  return size;
}
