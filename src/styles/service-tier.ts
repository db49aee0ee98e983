// The tier an OpenAI answer says it was served on (`service_tier` in `ChatCompletion` and
// `Response`): `flex` and `priority` as asked, `default` for `auto`, `default` or nothing.
const ECHOED = new Set(['flex', 'priority', 'scale']);

export function servedTier(body: Record<string, unknown>): string {
  const asked = body.service_tier;
  return typeof asked === 'string' && ECHOED.has(asked) ? asked : 'default';
}
