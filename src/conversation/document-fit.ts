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
 * Whether a reply answers a request's format. Its text is read as JSON at the first request that
 * asks for a document (most fixtures never meet one), and each such request judged against it.
 */
export class DocumentFit {
  /** The text read as JSON: undefined until read, null when it is no JSON. */
  private document: { value: unknown } | null | undefined;

  /** `text`: the reply's text when it is constant; undefined for a reply that answers any format. */
  constructor(private readonly text: string | undefined) {}

  fits(format: ResponseFormat): boolean {
    const text = this.text;
    if (text === undefined || format.type === 'text') return true;
    if (format.type === 'enum') return format.values.includes(text);
    const document = (this.document ??= readJson(text));
    if (document === null) return false;
    return format.type === 'json_object' ? isObject(document.value) : fitsSchema(document.value, format.schema);
  }
}

function readJson(text: string): { value: unknown } | null {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return null;
  }
}

/** The fit of a reply that calls tools (a call answers in any format) or whose text is a template (it cannot be judged before it is rendered). */
const ANY_FORMAT = new DocumentFit(undefined);

/**
 * `text`: the reply's text when it is constant (undefined for a template); `calls`: whether the
 * reply calls tools.
 */
export function documentFit(text: string | undefined, calls: boolean): DocumentFit {
  return calls || text === undefined ? ANY_FORMAT : new DocumentFit(text);
}
