// The vendor's JSON parser takes proto field names in snake_case as well as lowerCamelCase, and
// its own curl examples use `inline_data`, `system_instruction`, `generation_config`; it also
// reads `null` as "not set". Bodies are brought to that form once, so the rest of the style reads
// one spelling.

/** Values the client owns (call arguments, tool results, JSON Schemas, labels): copied as sent. */
const OPAQUE = new Set(['args', 'response', 'responseJsonSchema', 'parametersJsonSchema', 'labels', 'example', 'default']);

function camel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const name = camel(key);
    if (inner === null) continue;
    if (OPAQUE.has(name)) out[name] = inner;
    // Schema `properties` are named by the client: keep the names, normalise the schemas.
    else if (name === 'properties' && isRecord(inner)) out[name] = Object.fromEntries(Object.entries(inner).map(([k, v]) => [k, camelKeys(v)]));
    else out[name] = camelKeys(inner);
  }
  return out;
}
