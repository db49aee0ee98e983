// The minimal violation of a request's own schema, for the `schema_violation` fault: a valid
// value with one top-level property broken (a required one dropped, a type or an enum left, an
// extra one added), the rest still schema-true. Gemini's upper-case types read as JSON Schema's.
import type { Violation } from './faults.js';
import type { Random } from './random.js';
import type { JsonSchema } from './types.js';

type Doc = Record<string, unknown>;

function propertiesOf(schema: JsonSchema): Record<string, Doc> {
  const properties = schema.properties;
  return properties !== null && typeof properties === 'object' ? (properties as Record<string, Doc>) : {};
}

function requiredOf(schema: JsonSchema, value: Doc): string[] {
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  return required.filter((name): name is string => typeof name === 'string' && name in value);
}

function typeOf(property: Doc): string | undefined {
  const type = Array.isArray(property.type) ? property.type[0] : property.type;
  return typeof type === 'string' ? type.toLowerCase() : undefined;
}

/** A value no schema of this type accepts. */
function wrongValue(type: string): unknown {
  if (type === 'string') return 12345;
  if (type === 'array' || type === 'object') return 'not a list';
  return 'not a number';
}

function withWrongType(schema: JsonSchema, value: Doc, random: Random): Doc | undefined {
  const properties = propertiesOf(schema);
  const typed = Object.keys(value).filter((name) => properties[name] && typeOf(properties[name]) && !Array.isArray(properties[name].enum));
  if (typed.length === 0) return undefined;
  const required = requiredOf(schema, value).filter((name) => typed.includes(name));
  const name = random.pick(required.length > 0 ? required : typed);
  const type = typeOf(properties[name]!)!;
  return { ...value, [name]: type === 'boolean' ? 'yes' : wrongValue(type) };
}

function withoutRequired(schema: JsonSchema, value: Doc, random: Random): Doc | undefined {
  const required = requiredOf(schema, value);
  if (required.length === 0) return undefined;
  const { [random.pick(required)]: _dropped, ...rest } = value;
  return rest;
}

function outsideEnum(schema: JsonSchema, value: Doc, random: Random): Doc | undefined {
  const properties = propertiesOf(schema);
  const enums = Object.keys(value).filter((name) => Array.isArray(properties[name]?.enum) && (properties[name]!.enum as unknown[]).length > 0);
  if (enums.length === 0) return undefined;
  const name = random.pick(enums);
  const allowed = (properties[name]!.enum as unknown[]).map(String);
  let other = `${allowed[0]}_other`;
  while (allowed.includes(other)) other += '_other';
  return { ...value, [name]: other };
}

function withExtra(schema: JsonSchema, value: Doc): Doc {
  const taken = new Set([...Object.keys(propertiesOf(schema)), ...Object.keys(value)]);
  let name = 'unexpected_property';
  while (taken.has(name)) name += '_';
  return { ...value, [name]: 'unexpected' };
}

/**
 * `value` (valid for `schema`, an object) broken in one place; undefined when the schema has
 * nothing to break that way. Without a choice, a required property goes missing, or where none is
 * required one takes the wrong type.
 */
export function violate(schema: JsonSchema, value: Doc, random: Random, violation?: Violation): Doc | undefined {
  switch (violation) {
    case undefined:
      return withoutRequired(schema, value, random) ?? withWrongType(schema, value, random);
    case 'missing_required':
      return withoutRequired(schema, value, random);
    case 'wrong_type':
      return withWrongType(schema, value, random);
    case 'enum':
      return outsideEnum(schema, value, random);
    case 'extra_property':
      return withExtra(schema, value);
  }
}
