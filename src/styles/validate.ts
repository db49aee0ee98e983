// Request bodies are checked with zod; the first problem becomes a 400 in the style's envelope
// that names the field (`messages[0].role`).
import type { z } from 'zod';
import { invalid } from '../conversation/errors.js';

function fieldName(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('The request body must be a JSON object.', undefined, 'invalid_body');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = fieldName(issue.path);
  const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
  const message = missing
    ? `Missing required parameter: '${field}'.`
    : `Invalid value for '${field || 'body'}': ${issue.message}.`;
  throw invalid(message, field || undefined, missing ? 'missing_required_parameter' : 'invalid_value');
}
