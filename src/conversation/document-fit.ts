// Whether a fixture's reply can answer a request that asks for structured output (SPEC 20): the
// real services always answer such a request with a document of that format, so a text that is
// no such document does not answer it and the generator does instead.
import type { ResponseFormat } from './types.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The document's top level against the schema's: its type, and for an object its required keys. */
function fitsSchema(document: unknown, schema: Record<string, unknown>): boolean {
  if (schema.type === 'array') return Array.isArray(document);
  if (schema.type !== undefined && schema.type !== 'object') return true;
  if (!isObject(document)) return schema.type === undefined && schema.properties === undefined;
  const required = Array.isArray(schema.required) ? schema.required : [];
  return required.every((key) => typeof key !== 'string' || key in document);
}

/**
 * `text`: the reply's text when it is constant (undefined for a template, which cannot be judged
 * before it is rendered); `calls`: whether the reply calls tools (a call answers in any format).
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
