// The minimal violation of a request's own schema, for the `schema_violation` fault: a valid
// value with one property broken (a required one dropped, a type or an enum left, an extra one
// added), the rest still schema-true. The property is chosen from the seed among every object the
// value holds, nested ones too, so a schema whose required fields sit below the top is broken
// there as well. Gemini's upper-case types read as JSON Schema's.
import type { Violation } from './faults.js';
import type { Random } from './random.js';
import type { JsonSchema } from './types.js';

type Doc = Record<string, unknown>;

/** An object inside the value, with its schema and the keys that lead to it. */
interface Place {
  path: Array<string | number>;
  schema: JsonSchema;
  value: Doc;
}

/** A property of one place that a violation may break. */
interface Spot {
  place: Place;
  name: string;
}

function isDoc(value: unknown): value is Doc {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function propertiesOf(schema: JsonSchema): Record<string, Doc> {
  return isDoc(schema.properties) ? (schema.properties as Record<string, Doc>) : {};
}

function typeOf(property: Doc): string | undefined {
  const type = Array.isArray(property.type) ? property.type[0] : property.type;
  return typeof type === 'string' ? type.toLowerCase() : undefined;
}

/** The value's objects, outermost first: its own properties' objects and the first item of its lists of objects. */
function placesOf(schema: JsonSchema, value: Doc, path: Place['path'] = []): Place[] {
  const places: Place[] = [{ path, schema, value }];
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    const inner = value[name];
    if (isDoc(inner)) places.push(...placesOf(property, inner, [...path, name]));
    else if (Array.isArray(inner) && isDoc(inner[0]) && isDoc(property.items)) places.push(...placesOf(property.items, inner[0], [...path, name, 0]));
  }
  return places;
}

/** `value` with the object at `path` replaced by what `change` makes of it. */
function changedAt(value: unknown, path: Place['path'], change: (doc: Doc) => Doc): unknown {
  if (path.length === 0) return change(value as Doc);
  const [key, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === key ? changedAt(item, rest, change) : item));
  const doc = value as Doc;
  return { ...doc, [key!]: changedAt(doc[key!], rest, change) };
}

function spots(places: Place[], keep: (place: Place, name: string) => boolean): Spot[] {
  return places.flatMap((place) => Object.keys(place.value).filter((name) => keep(place, name)).map((name) => ({ place, name })));
}

function isRequired(place: Place, name: string): boolean {
  return Array.isArray(place.schema.required) && (place.schema.required as unknown[]).includes(name);
}

/** A value no schema of this type accepts. */
function wrongValue(type: string): unknown {
  if (type === 'string') return 12345;
  if (type === 'boolean') return 'yes';
  if (type === 'array' || type === 'object') return 'not a list';
  return 'not a number';
}

function withWrongType(root: Doc, places: Place[], random: Random): Doc | undefined {
  const typed = spots(places, (place, name) => {
    const property = propertiesOf(place.schema)[name];
    return property !== undefined && typeOf(property) !== undefined && !Array.isArray(property.enum);
  });
  if (typed.length === 0) return undefined;
  const required = typed.filter((spot) => isRequired(spot.place, spot.name));
  const { place, name } = random.pick(required.length > 0 ? required : typed);
  const type = typeOf(propertiesOf(place.schema)[name]!)!;
  return changedAt(root, place.path, (doc) => ({ ...doc, [name]: wrongValue(type) })) as Doc;
}

function withoutRequired(root: Doc, places: Place[], random: Random): Doc | undefined {
  const required = spots(places, isRequired);
  if (required.length === 0) return undefined;
  const { place, name } = random.pick(required);
  return changedAt(root, place.path, ({ [name]: _dropped, ...rest }) => rest) as Doc;
}

function outsideEnum(root: Doc, places: Place[], random: Random): Doc | undefined {
  const enums = spots(places, (place, name) => {
    const allowed = propertiesOf(place.schema)[name]?.enum;
    return Array.isArray(allowed) && allowed.length > 0;
  });
  if (enums.length === 0) return undefined;
  const { place, name } = random.pick(enums);
  const allowed = (propertiesOf(place.schema)[name]!.enum as unknown[]).map(String);
  let other = `${allowed[0]}_other`;
  while (allowed.includes(other)) other += '_other';
  return changedAt(root, place.path, (doc) => ({ ...doc, [name]: other })) as Doc;
}

/** An extra property on an object whose schema closes it, else on the value itself. */
function withExtra(root: Doc, places: Place[], random: Random): Doc {
  const closed = places.filter((place) => place.schema.additionalProperties === false);
  const place = closed.length > 0 ? random.pick(closed) : places[0]!;
  const taken = new Set([...Object.keys(propertiesOf(place.schema)), ...Object.keys(place.value)]);
  let name = 'unexpected_property';
  while (taken.has(name)) name += '_';
  return changedAt(root, place.path, (doc) => ({ ...doc, [name]: 'unexpected' })) as Doc;
}

/**
 * `value` (valid for `schema`, an object) broken in one place; undefined when the schema has
 * nothing to break that way. Without a choice, a required property goes missing, or where none is
 * required one takes the wrong type.
 */
export function violate(schema: JsonSchema, value: Doc, random: Random, violation?: Violation): Doc | undefined {
  const places = placesOf(schema, value);
  switch (violation) {
    case undefined:
      return withoutRequired(value, places, random) ?? withWrongType(value, places, random);
    case 'missing_required':
      return withoutRequired(value, places, random);
    case 'wrong_type':
      return withWrongType(value, places, random);
    case 'enum':
      return outsideEnum(value, places, random);
    case 'extra_property':
      return withExtra(value, places, random);
  }
}
