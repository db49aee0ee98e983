// Keys arrive in every way a style's clients present them (the registry's `keyHeader` and
// `keyQuery`), on every endpoint; auth runs before anything else about the request.
import { MockError } from '../conversation/errors.js';
import type { Mock } from '../exchange/mock.js';
import { STYLE_ENTRIES } from '../styles/registry.js';
import type { ShellContext } from './shell-context.js';
import type { MockState } from './state.js';

/** The standard header, which carries the key as a bearer token. */
const BEARER = 'authorization';

// In a fixed order, whatever the registry's: the bearer token, the other headers by name, then the
// query parameters. A request presenting two keys is judged by the first.
const KEY_HEADERS = [...new Set(STYLE_ENTRIES.map((entry) => entry.keyHeader))].filter((header) => header !== BEARER).sort();
const KEY_SIGNATURES = STYLE_ENTRIES.flatMap((entry) => entry.keySignature ?? []);
const KEY_QUERIES = [...new Set(STYLE_ENTRIES.flatMap((entry) => entry.keyQuery ?? []))].sort();

const WAYS = [`"Authorization: Bearer KEY"`, ...KEY_HEADERS.map((header) => `"${header}"`), ...KEY_QUERIES.map((name) => `"?${name}="`)];
const NO_KEY = `You didn't provide an API key. Send it as ${WAYS.slice(0, -1).join(', ')} or ${WAYS.at(-1)}.`;

export function presentedKey(ctx: ShellContext): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(ctx.get(BEARER))?.[1]?.trim();
  if (bearer) return bearer;
  for (const signature of KEY_SIGNATURES) {
    const signed = signature.exec(ctx.get(BEARER))?.[1];
    if (signed) return signed;
  }
  for (const header of KEY_HEADERS) if (ctx.get(header)) return ctx.get(header);
  for (const name of KEY_QUERIES) {
    const key = ctx.query[name];
    if (typeof key === 'string' && key) return key;
  }
  return undefined;
}

/** The key's check: a throw is the request's 401, in its door's envelope. */
export function authenticate(mock: Mock) {
  return (ctx: ShellContext): void => {
    const key = presentedKey(ctx);
    if (!key) throw new MockError('unauthorized', NO_KEY);
    const keys = mock.store.current.keys;
    if (keys) {
      const entry = keys.get(key);
      if (!entry) throw new MockError('unauthorized', 'Incorrect API key provided.');
      const state = ctx.state as MockState;
      state.group = entry.group ?? 'default';
      state.keyScenario = entry.scenario;
    }
  };
}
