// Each chat style's 404 family, as its registry entry declares it: a mistyped path of the family
// (one of its chat paths with a segment too many) is answered over HTTP in the style's own envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../src/conversation/errors.js';
import { STYLE_ENTRIES } from '../../src/styles/registry.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** A chat path of the entry with its parameters filled in, and a segment no route has. */
function mistyped(path: string, params: Record<string, string>): string {
  return `${path.replace(/:(\w+)/g, (_whole, name: string) => params[name] ?? name)}/oops`;
}

describe('an unknown URL of a style family', () => {
  for (const entry of STYLE_ENTRIES.filter((each) => each.family)) {
    it(`is answered in the ${entry.style.name} envelope`, async () => {
      const path = mistyped(entry.paths[0]!, entry.modelParams?.('gemini-2.5-flash') ?? {});
      const answer = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: '{}' });
      const expected = entry.style.envelope(failure('unknown_url', `Unknown request URL: POST ${path}.`), answer.headers.get('x-request-id')!);
      expect(answer.status).toBe(expected.status);
      expect(await answer.json()).toEqual(expected.body);
    });
  }
});
