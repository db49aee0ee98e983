// Test helper: ajv validators (draft-07 and 2020-12) with the formats the generator emits, and
// the conversion of Gemini's OpenAPI-style schemas to JSON Schema so ajv can judge them too.
import { isIPv4, isIPv6 } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

// ajv-formats is not a dependency; these follow its "full" mode closely enough for our output.
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:z|[+-]\d\d(?::?\d\d)?)$/i;
const isDate = (text: string): boolean => {
  const parts = DATE.exec(text);
  if (!parts) return false;
  const date = new Date(Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3])));
  return date.toISOString().slice(0, 10) === text;
};
const isUri = (text: string): boolean => {
  try {
    return /^[a-z][a-z\d+.-]*:/i.test(text) && new URL(text).href.length > 0;
  } catch {
    return false;
  }
};
const FORMATS: Record<string, (text: string) => boolean> = {
  date: isDate,
  time: (text) => TIME.test(text),
  'date-time': (text) => {
    const [date = '', time = '', ...rest] = text.split(/t/i);
    return rest.length === 0 && isDate(date) && TIME.test(time);
  },
  email: (text) => /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i.test(text),
  uri: isUri,
  url: isUri,
  uuid: (text) => /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(text),
  ipv4: isIPv4,
  ipv6: isIPv6,
  hostname: (text) => /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i.test(text),
  duration: (text) => /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/.test(text),
};

function withFormats<T extends Ajv | Ajv2020>(ajv: T): T {
  for (const [name, validate] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  return ajv;
}

// strict: false, because SDK schemas carry annotations ajv does not know (propertyOrdering, title...).
const draft07 = withFormats(new Ajv({ strict: false, allErrors: true }));
const draft2020 = withFormats(new Ajv2020({ strict: false, allErrors: true }));

export type Dialect = 'draft-07' | '2020-12' | 'gemini';

export function compileSchema(schema: Record<string, unknown>, dialect: Dialect): ValidateFunction {
  if (dialect === 'gemini') return draft2020.compile(fromOpenApi(schema) as Record<string, unknown>);
  return (dialect === '2020-12' ? draft2020 : draft07).compile(schema);
}

/** Gemini's Schema as JSON Schema: lower-case types, nullable as a null type, int64 strings as numbers. */
export function fromOpenApi(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fromOpenApi);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'propertyOrdering' || key === 'nullable') continue;
    if (key === 'format' && ['enum', 'int32', 'int64', 'float', 'double'].includes(String(value))) continue;
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'properties' && typeof value === 'object' && value !== null) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, fromOpenApi(sub)]));
    } else if (/^(min|max)(Items|Length|Properties)$/.test(key) && typeof value === 'string') out[key] = Number(value);
    else out[key] = fromOpenApi(value);
  }
  if ((node as Record<string, unknown>).nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  }
  return out;
}
