// The vendor's `Schema` (an OpenAPI 3.0 subset: upper-case types, `nullable`, int64 limits that
// may arrive as strings) turned into plain JSON Schema, so tools and structured output read the
// same in every style and a client's validator agrees with what the generator produced.
import { invalid } from '../../conversation/errors.js';
import type { JsonSchema } from '../../conversation/types.js';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
const COUNTS = ['minItems', 'maxItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function typeOf(raw: unknown, field: string): string | undefined {
  if (raw === undefined) return undefined;
  const name = typeof raw === 'string' ? raw.toLowerCase() : '';
  if (name === 'type_unspecified') return undefined;
  if (!TYPES.has(name)) {
    throw invalid(`Invalid value at '${field}': expected one of STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT, NULL, got ${JSON.stringify(raw)}.`, field);
  }
  return name;
}

function count(raw: unknown, field: string): number {
  const value = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalid(`Invalid value at '${field}': expected a non-negative integer, got ${JSON.stringify(raw)}.`, field);
  }
  return value;
}

/** Keys keep the order the client sent them in, so token counts match the same schema in JSON Schema form. */
export function toJsonSchema(schema: unknown, field: string): JsonSchema {
  if (!isRecord(schema)) throw invalid(`Invalid value at '${field}': expected a Schema object.`, field);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    const at = `${field}.${key}`;
    if (key === 'type') {
      const name = typeOf(value, at);
      if (name !== undefined) out.type = schema.nullable === true && name !== 'null' ? [name, 'null'] : name;
    } else if (key === 'nullable') {
      continue;
    } else if (key === 'properties') {
      if (!isRecord(value)) throw invalid(`Invalid value at '${at}': expected an object of Schemas.`, at);
      out.properties = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, toJsonSchema(inner, `${at}.${name}`)]));
    } else if (key === 'items') {
      out.items = toJsonSchema(value, at);
    } else if (key === 'anyOf') {
      if (!Array.isArray(value)) throw invalid(`Invalid value at '${at}': expected a list of Schemas.`, at);
      out.anyOf = value.map((branch, i) => toJsonSchema(branch, `${at}[${i}]`));
    } else {
      out[key] = COUNTS.includes(key) ? count(value, at) : value;
    }
  }
  return out;
}
