// Every way a registry style's clients present a key is accepted on every route, whatever style
// the route speaks, and the 401 for a request without one names them all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STYLE_ENTRIES } from '../../src/styles/registry.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'keys.yaml': 'keys:\n  - key: sk-good\n' } });
});
afterAll(() => server.close());

/** A request presenting `key` the way a style's clients do: as its header, or as its query parameter. */
type Presented = { name: string; present: (key: string) => { query: string; headers: Record<string, string> } };

const WAYS: Presented[] = STYLE_ENTRIES.flatMap((entry) => [
  { name: entry.keyHeader, present: (key: string) => ({ query: '', headers: { [entry.keyHeader]: entry.keyHeader === 'authorization' ? `Bearer ${key}` : key } }) },
  ...(entry.keyQuery ? [{ name: `?${entry.keyQuery}=`, present: (key: string) => ({ query: `?${entry.keyQuery}=${key}`, headers: {} }) }] : []),
]).filter((way, index, all) => all.findIndex((other) => other.name === way.name) === index);

const ROUTES = ['/v1/embeddings', '/v1/messages/count_tokens', '/v1beta/models/gemini-2.5-flash:countTokens'];
const BODIES: Record<string, unknown> = {
  '/v1/embeddings': { model: 'text-embedding-3-small', input: 'hi' },
  '/v1/messages/count_tokens': { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }] },
  '/v1beta/models/gemini-2.5-flash:countTokens': { contents: [{ parts: [{ text: 'hi' }] }] },
};

function post(path: string, { query, headers }: { query: string; headers: Record<string, string> }): Promise<Response> {
  return fetch(`${server.url}${path}${query}`, { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers }, body: JSON.stringify(BODIES[path]) });
}

describe('the ways a key is presented', () => {
  for (const way of WAYS) {
    it.each(ROUTES)(`${way.name} is accepted on %s, and checked`, async (path) => {
      expect((await post(path, way.present('sk-good'))).status).toBe(200);
      expect((await post(path, way.present('sk-bad'))).status).toBe(401);
    });
  }

  it('are all named when none is', async () => {
    const answer = await post('/v1/embeddings', { query: '', headers: {} });
    expect(answer.status).toBe(401);
    const { message } = ((await answer.json()) as { error: { message: string } }).error;
    for (const way of WAYS) expect(message).toContain(way.name === 'authorization' ? 'Authorization: Bearer KEY' : way.name);
  });
});
