// A fresh server answers a plain chat hit without building its Koa app (server/listener.ts), and
// builds it at the first request that needs it: the first requests that need it, sent together
// right after the listening line, must each get the answer a warm server gives.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
  - match: { contains: "parcel" }
    reply: { text: "Your parcel left the depot this morning." }
`;

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function fresh(): Promise<TestServer> {
  const server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES } });
  servers.push(server);
  return server;
}

function chat(server: TestServer, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test', ...headers },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Where is my parcel?' }] }),
  });
}

/** What a client reads of each request that only the Koa app answers, sent together. */
async function koaAnswers(server: TestServer): Promise<unknown[]> {
  const asked = [
    fetch(`${server.url}/v1/models`, { headers: { authorization: 'Bearer sk-test' } }),
    fetch(`${server.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
      body: JSON.stringify({ model: 'text-embedding-3-small', input: 'parcel' }),
    }),
    fetch(`${server.url}/v1/chat/completions`, { method: 'OPTIONS', headers: { origin: 'http://app.test', 'access-control-request-method': 'POST' } }),
    fetch(`${server.url}/v1/no-such-door`, { headers: { authorization: 'Bearer sk-test' } }),
    server.admin('/health'),
    // A chat request Koa takes (a compressed-body header), answered as the plain one is.
    chat(server, { 'content-encoding': 'identity' }),
  ];
  return Promise.all(
    asked.map(async (answer) => {
      const response = await answer;
      const text = await response.text();
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      return { status: response.status, type: response.headers.get('content-type'), shape: shapeOf(body) };
    }),
  );
}

/** A body's keys and its chat text or error code: what differs between two answers besides ids and times. */
function shapeOf(body: Record<string, unknown> | undefined): unknown {
  if (!body) return undefined;
  const choices = body.choices as Array<{ message: { content: string } }> | undefined;
  const error = body.error as { code?: string } | undefined;
  return { keys: Object.keys(body).sort(), text: choices?.[0]?.message.content, error: error?.code };
}

describe('the Koa app, built at its first request', () => {
  it('is not needed by a plain chat hit on a fresh server', async () => {
    const server = await fresh();
    const response = await chat(server);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe('Your parcel left the depot this morning.');
    const journal = (await (await server.admin('/requests')).json()) as { requests: Array<{ path: string; status: number }> };
    expect(journal.requests.map((entry) => [entry.path, entry.status])).toEqual([['/v1/chat/completions', 200]]);
  });

  it('answers requests that come together while it is built as a warm server answers them', async () => {
    const server = await fresh();
    const first = await koaAnswers(server);
    const warm = await koaAnswers(server);
    expect(first).toEqual(warm);
    expect(first.map((answer) => (answer as { status: number }).status)).toEqual([200, 200, 204, 404, 200, 200]);
    expect((first[5] as { shape: { text: string } }).shape.text).toBe('Your parcel left the depot this morning.');
  });
});
