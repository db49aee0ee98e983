// Whether one JSON value holds another: what a `verify` body filter and an MCP reply's
// `match.args` both mean by "contains" (objects by key, arrays by element in any order).

/** Whether `actual` holds everything `wanted` holds: objects by key, arrays by element (in any order). */
export function contains(actual: unknown, wanted: unknown): boolean {
  if (Array.isArray(wanted)) return Array.isArray(actual) && wanted.every((item) => actual.some((got) => contains(got, item)));
  if (wanted !== null && typeof wanted === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const object = actual as Record<string, unknown>;
    return Object.entries(wanted).every(([key, value]) => key in object && contains(object[key], value));
  }
  return Object.is(actual, wanted);
}
