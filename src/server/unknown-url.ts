// A URL no route answers: a 404 in the envelope of the family its path belongs to (SPEC 2), so a
// Gemini client misconfigured by a prefix reads a Gemini error, not an OpenAI one, and a hint at
// the base URL when the path is a known route with its version prefix missing or doubled (LiteLLM
// with an `api_base` lacking Gemini's prefix calls `/models/{model}:generateContent`). The families
// and the prefixes are the registry's (styles/registry.ts).
import { STYLE_ENTRIES, type StyleEntry } from '../styles/registry.js';

/** The chat style whose envelope a path's 404 is spelled in: the first whose family takes it. */
export function familyOf(path: string): StyleEntry {
  return STYLE_ENTRIES.find((entry) => entry.family?.test(path))!;
}

/** A path's version prefix (`/v1beta`), or the empty string for a path of one segment. */
function prefixOf(path: string): string {
  const end = path.indexOf('/', 1);
  return end < 0 ? '' : path.slice(0, end);
}

/** The version prefixes of the styles' chat paths, a family's own first. */
function prefixesFor(family: StyleEntry): string[] {
  const entries = [family, ...STYLE_ENTRIES.filter((entry) => entry !== family)];
  return [...new Set(entries.flatMap((entry) => entry.paths.map(prefixOf)))];
}

/**
 * The path a client probably meant: the same route with a doubled prefix dropped, or its prefix
 * added (its family's prefixes first: `/v1beta` for a Gemini-shaped path, the prefix its SDKs use).
 */
export function meantPath(path: string, known: (path: string) => boolean): string | undefined {
  const prefixes = prefixesFor(familyOf(path));
  const doubled = prefixes.filter((prefix) => path.startsWith(`${prefix}/`)).map((prefix) => path.slice(prefix.length));
  return [...doubled, ...prefixes.map((prefix) => `${prefix}${path}`)].find(known);
}

/** The 404's message: the method and path, and the likely base URL mistake when there is one. */
export function unknownUrlMessage(method: string, path: string, known: (path: string) => boolean): string {
  const meant = meantPath(path, known);
  const base = `Unknown request URL: ${method} ${path}.`;
  if (!meant) return base;
  const prefix = prefixOf(meant);
  const fix = meant.length > path.length ? `its base URL is missing ${prefix}` : `its base URL repeats ${prefix}`;
  return `${base} Did you mean ${method} ${meant}? The client calling it looks misconfigured: ${fix}.`;
}
