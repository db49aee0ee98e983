// A URL no route answers: a 404 in the envelope of the family its path belongs to (SPEC 2), so a
// Gemini client misconfigured by a prefix reads a Gemini error, not an OpenAI one, and a hint at
// the base URL when the path is a known route with its version prefix missing or doubled (LiteLLM
// with an `api_base` lacking `/v1beta` calls `/models/gemini-2.5-flash:generateContent`).

/** The chat style whose envelope a path's 404 is spelled in. */
export type PathFamily = 'generate-content' | 'messages' | 'chat-completions';

const MODEL_ACTION = /\/models\/[^/]+:[^/]+\/?$/;
const MESSAGES = /(^|\/)messages(\/|$)/;

export function familyOf(path: string): PathFamily {
  if (path.startsWith('/v1beta/') || MODEL_ACTION.test(path)) return 'generate-content';
  if (MESSAGES.test(path)) return 'messages';
  return 'chat-completions';
}

/**
 * The path a client probably meant: the same route with a doubled prefix dropped, or its prefix
 * added (`/v1beta` first for a Gemini-shaped path, the prefix its SDKs use).
 */
export function meantPath(path: string, known: (path: string) => boolean): string | undefined {
  const prefixes = familyOf(path) === 'generate-content' ? ['/v1beta', '/v1'] : ['/v1', '/v1beta'];
  const doubled = prefixes.filter((prefix) => path.startsWith(`${prefix}/`)).map((prefix) => path.slice(prefix.length));
  return [...doubled, ...prefixes.map((prefix) => `${prefix}${path}`)].find(known);
}

/** The 404's message: the method and path, and the likely base URL mistake when there is one. */
export function unknownUrlMessage(method: string, path: string, known: (path: string) => boolean): string {
  const meant = meantPath(path, known);
  const base = `Unknown request URL: ${method} ${path}.`;
  if (!meant) return base;
  const prefix = meant.slice(0, meant.indexOf('/', 1));
  const fix = meant.length > path.length ? `its base URL is missing ${prefix}` : `its base URL repeats ${prefix}`;
  return `${base} Did you mean ${method} ${meant}? The client calling it looks misconfigured: ${fix}.`;
}
