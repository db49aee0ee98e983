// The other doors go through the frame chat goes through: a key is checked first (401 in the
// door's envelope), CORS answers preflights and marks every answer, a session's journal holds
// the request with its source, and MCP's journal tool lists it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'keys.yaml': 'keys:\n  - key: sk-good\n' } });
});
afterAll(() => server.close());

const DOORS = [
  { path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: 'hi' }, envelope: 'openai' },
  { path: '/v1beta/models/text-embedding-004:embedContent', body: { content: { parts: [{ text: 'hi' }] } }, envelope: 'gemini' },
  { path: '/v1beta/models/text-embedding-004:batchEmbedContents', body: { requests: [{ content: { parts: [{ text: 'hi' }] } }] }, envelope: 'gemini' },
  { path: '/v1/rerank', body: { model: 'rerank-v3.5', query: 'q', documents: ['a'] }, envelope: 'openai' },
  { path: '/v2/rerank', body: { model: 'rerank-v3.5', query: 'q', documents: ['a'] }, envelope: 'openai' },
  { path: '/v1/moderations', body: { input: 'hi' }, envelope: 'openai' },
  { path: '/v1/completions', body: { model: 'davinci-002', prompt: 'hi' }, envelope: 'openai' },
] as const;

const post = (path: string, body: unknown, headers: Record<string, string>) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://app.example', ...headers }, body: JSON.stringify(body) });

describe('the frame of the other doors', () => {
  it.each(DOORS)('$path checks the key first, answers CORS, and is journaled with its source', async ({ path, body, envelope }) => {
    const refused = await post(path, body, { authorization: 'Bearer sk-bad' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBeTruthy();
    const error = ((await refused.json()) as { error: Record<string, unknown> }).error;
    if (envelope === 'gemini') expect(error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
    else expect(error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });

    const preflight = await fetch(`${server.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');

    const session = `frame-${path.replace(/\W+/g, '-')}`;
    const answered = await post(path, body, { 'x-goog-api-key': 'sk-good', 'x-mock-session': session });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('x-mock-source')).toBe('generated');
    const journal = (await (await server.admin(`/requests?session=${session}`)).json()) as { requests: Array<{ path: string; status: number; source: string; model: string }> };
    expect(journal.requests).toEqual([expect.objectContaining({ path, status: 200, source: 'generated', model: expect.any(String) })]);
    // What it used, and its price where the catalog has one (moderation is free).
    const used = journal.requests[0] as unknown as { usage: { input_tokens: number } | null; cost_usd: number | null };
    if (path === '/v1/moderations') expect(used.usage).toBeNull();
    else expect(used.usage!.input_tokens).toBeGreaterThan(0);
    if (path === '/v1/embeddings' || path === '/v1/completions') expect(used.cost_usd).toBeGreaterThan(0);
    // Only chat requests become chat fixtures: the other doors have their own sections.
    const id = (journal.requests[0] as unknown as { id: string }).id;
    const pin = await server.admin(`/requests/${id}/fixture`);
    expect(pin.status).toBe(400);
    expect(((await pin.json()) as { error: { code: string } }).error.code).toBe('request_not_pinnable');
  });

  it("lists a door's request in MCP's journal tool", async () => {
    await post('/v1/embeddings', DOORS[0].body, { authorization: 'Bearer sk-good', 'x-mock-session': 'mcp-doors' });
    const rpc = async (id: number, method: string, params: unknown) => {
      const response = await fetch(`${server.url}/__admin/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      });
      const text = await response.text();
      return JSON.parse(text.startsWith('{') ? text : text.split('\n').find((line) => line.startsWith('data:'))!.slice(5)) as { result: { content: Array<{ text: string }> } };
    };
    await rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
    const answer = await rpc(2, 'tools/call', { name: 'journal', arguments: { session: 'mcp-doors' } });
    expect(answer.result.content[0]!.text).toContain('/v1/embeddings');
  });
});
