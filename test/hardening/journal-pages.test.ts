// The journal is read a page at a time (SPEC 11 "Time"): the admin API, the MCP tools and the
// inspector never build the whole journal for one call, a JSON-RPC batch is bounded, and a
// fixtures document is refused by its size before it is parsed or written.
import { readdirSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOURNAL_PAGE } from '../../src/exchange/admin/journal-page.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { call, connect, ok } from '../mcp/connect.js';

const TOKEN = 'pages-secret';
const ENTRIES = JOURNAL_PAGE.entries + 60;
const auth = { authorization: `Bearer ${TOKEN}` };

let server: TestServer;
let client: Client;

interface Page {
  requests: Array<{ id: string; session: string; body: unknown }>;
  total: number;
  more: boolean;
}

const admin = (path: string, init: RequestInit = {}) => fetch(`${server.url}/__admin${path}`, { ...init, headers: { ...auth, ...init.headers } });
const page = async (query: string): Promise<Page> => {
  const response = await admin(`/requests?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
};

beforeAll(async () => {
  server = await startTestServer({ adminToken: TOKEN, journalMax: 2 * ENTRIES });
  // Filler in two sessions, a few at a time: what is asked does not matter, only that it is journaled.
  const one = (i: number) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test', 'x-mock-session': i % 2 === 0 ? 'even' : 'odd' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `entry ${i}` }] }),
    }).then((r) => r.text());
  for (let i = 0; i < ENTRIES; i += 20) await Promise.all(Array.from({ length: Math.min(20, ENTRIES - i) }, (_, k) => one(i + k)));
  client = await connect('http', server.url, TOKEN);
}, 120_000);
afterAll(async () => {
  await client?.close();
  await server.close();
});

describe('the admin API reads the journal a page at a time', () => {
  it('gives the latest page, says there is more, and pages back with before= to the oldest', async () => {
    const latest = await page('');
    expect(latest).toMatchObject({ total: ENTRIES, more: true });
    expect(latest.requests).toHaveLength(JOURNAL_PAGE.entries);
    const earlier = await page(`before=${latest.requests[0]!.id}`);
    expect(earlier).toMatchObject({ total: ENTRIES, more: false });
    expect(earlier.requests).toHaveLength(ENTRIES - JOURNAL_PAGE.entries);
    const ids = new Set([...earlier.requests, ...latest.requests].map((entry) => entry.id));
    expect(ids.size).toBe(ENTRIES);
  });

  it('takes a limit, a filter and after=, and names a bad limit or an unknown cursor', async () => {
    const last = await page('session=odd&limit=3');
    expect(last.requests).toHaveLength(3);
    expect(last.total).toBe(ENTRIES / 2);
    expect(last.requests.every((entry) => entry.session === 'odd')).toBe(true);
    const caughtUp = await page(`session=odd&after=${last.requests[0]!.id}`);
    expect(caughtUp).toMatchObject({ more: false });
    expect(caughtUp.requests.map((entry) => entry.id)).toEqual(last.requests.slice(1).map((entry) => entry.id));
    const brief = await page('session=odd&limit=3&brief=true');
    expect(brief.requests.map((entry) => entry.id)).toEqual(last.requests.map((entry) => entry.id));
    expect(brief.requests.every((entry) => entry.body === null)).toBe(true);

    for (const [query, param] of [['limit=0', 'limit'], [`limit=${JOURNAL_PAGE.entries + 1}`, 'limit'], ['before=req_nope', 'before']] as const) {
      const refused = await admin(`/requests?${query}`);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { param: string } }).error.param).toBe(param);
    }
  });

  it('GET /__admin/requests/{id} reads one entry', async () => {
    const [entry] = (await page('session=even&limit=1')).requests;
    const one = await admin(`/requests/${entry!.id}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual(entry);
    expect((await admin('/requests/req_nope')).status).toBe(404);
  });
});

describe('MCP reads a page, bounds batches and documents', () => {
  it('journal asks for the page it shows, and explain_request for its one entry', async () => {
    expect(await ok(client, 'journal', { limit: 2 })).toContain(`The latest 2 of ${ENTRIES} matching requests`);
    const [entry] = (await page('limit=1')).requests;
    expect(await ok(client, 'explain_request', { id: entry!.id })).toContain(entry!.id);
    const unknown = await call(client, 'explain_request', { id: 'req_nope' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain(`Known ids (the latest 10): `);
    expect(unknown.text).toContain(entry!.id);
  });

  it('a JSON-RPC batch of more than 10 messages is refused before any runs', async () => {
    const batch = (n: number) =>
      Array.from({ length: n }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'journal', arguments: { limit: 1000 } } }));
    const send = (n: number) =>
      admin('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(batch(n)) });
    const refused = await send(11);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('at most 10 messages') } });
    const served = await send(10);
    expect(served.status).toBe(200);
    expect(await served.json()).toHaveLength(10);
  });

  it("add_fixture refuses a document past a fixtures file's 4 MB before parsing it", async () => {
    const yaml = `chat:\n${'  - { match: { contains: x }, reply: { text: y } }\n'.repeat(90_000)}`;
    const refused = await call(client, 'add_fixture', { yaml });
    expect(refused).toMatchObject({ isError: true, text: expect.stringContaining('past the limit of 4194304 bytes') });
  });
});

describe('a fixtures document posted to the admin API', () => {
  const post = (query: string, body: string) => admin(`/fixtures${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const huge = () => JSON.stringify({ chat: Array.from({ length: 60_000 }, (_, i) => ({ name: `f${i}`, match: { contains: `needle ${i}` }, reply: { text: 'y' } })) });

  it('past 4 MB is a 413 before it is parsed, and with ?file= nothing is written', async () => {
    const body = huge();
    expect(body.length).toBeGreaterThan(4 * 1024 * 1024);
    const runtime = await post('', body);
    expect(runtime.status).toBe(413);
    const filed = await post('?file=huge.yaml', body);
    expect(filed.status).toBe(413);
    expect(readdirSync(server.fixturesDir)).not.toContain('huge.yaml');
  });

  it('a ?file= name of 300 characters is a 400 naming file', async () => {
    const refused = await post(`?file=${'n'.repeat(295)}.yaml`, JSON.stringify({ chat: [{ reply: { text: 'x' } }] }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { param: 'file', message: expect.stringContaining('at most 128') } });
  });
});
