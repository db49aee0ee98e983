// Whether a fixture's reply can answer a request that asks for structured output (SPEC 20): the
// real services always answer such a request with a document of that format, so a text that is
// no such document does not answer it and the generator does instead.
import type { Ajv, ValidateFunction } from 'ajv';
import type addFormats from 'ajv-formats';
import { atFirstUse } from './first-use.js';
import { Memo } from './remember.js';
import type { ResponseFormat } from './types.js';

const ajvPackage = atFirstUse<typeof import('ajv')>('ajv');
const formatsPackage = atFirstUse<typeof addFormats>('ajv-formats');
let made: Ajv | undefined;

/** The checker, made at the first request that asks for structured output. */
function checker(): Ajv {
  if (made) return made;
  // `strict: false`: clients' schemas carry keywords ajv does not know (OpenAI's `strict`, Gemini's
  // `propertyOrdering`); the vendors check formats such as `date-time` and `email`, and so do we.
  made = new (ajvPackage().Ajv)({ strict: false, allErrors: false });
  formatsPackage().default(made);
  return made;
}

/** What a compiled check holds besides its key: its generated code and closures, about its schema's size several times over. */
const checkBytes = (schemaChars: number) => 4096 + 8 * schemaChars;

/**
 * Checks compiled lately, by the schema's JSON: a client sends the same schema request after
 * request. Kept per schema text; `null` for a schema ajv cannot compile.
 */
const checks = new Memo<{ check: ValidateFunction | null; chars: number }>('schemas', 256, ({ chars }) => checkBytes(chars));
/** The check of a schema object, for the fixtures judged in one request: its JSON is made once. */
const checksOfObject = new WeakMap<object, ValidateFunction | null>();

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function compiled(schema: Record<string, unknown>): ValidateFunction | null {
  const known = checksOfObject.get(schema);
  if (known !== undefined) return known;
  const key = JSON.stringify(schema);
  let entry = checks.get(key);
  if (entry === undefined) {
    let check: ValidateFunction | null;
    try {
      check = checker().compile(schema);
    } catch {
      check = null;
    }
    // ajv keeps every schema it compiled, by object and `$id`: the memo above is the one that keeps them.
    checker().removeSchema(schema);
    entry = { check, chars: key.length };
    checks.set(key, entry);
  }
  checksOfObject.set(schema, entry.check);
  return entry.check;
}

/** A schema ajv cannot compile is judged at its top level: its type, and for an object its required keys. */
function fitsTopLevel(document: unknown, schema: Record<string, unknown>): boolean {
  if (schema.type === 'array') return Array.isArray(document);
  if (schema.type !== undefined && schema.type !== 'object') return true;
  if (!isObject(document)) return schema.type === undefined && schema.properties === undefined;
  const required = Array.isArray(schema.required) ? schema.required : [];
  return required.every((key) => typeof key !== 'string' || key in document);
}

function fitsSchema(document: unknown, schema: Record<string, unknown>): boolean {
  const check = compiled(schema);
  return check === null ? fitsTopLevel(document, schema) : check(document) === true;
}

/**
 * `text`: the reply's text when it is constant (undefined for a template, which cannot be judged
 * before it is rendered); `calls`: whether the reply calls tools (a call answers in any format).
 * The text is read as JSON once, at load, and each request's format judged against it.
 */
export function documentFit(text: string | undefined, calls: boolean): (format: ResponseFormat) => boolean {
  if (calls || text === undefined) return () => true;
  let document: { value: unknown } | undefined;
  try {
    document = { value: JSON.parse(text) };
  } catch {
    document = undefined;
  }
  return (format) => {
    switch (format.type) {
      case 'text':
        return true;
      case 'enum':
        return format.values.includes(text);
      case 'json_object':
        return document !== undefined && isObject(document.value);
      case 'json_schema':
        return document !== undefined && fitsSchema(document.value, format.schema);
    }
  };
}
