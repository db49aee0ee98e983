// Garbage sent to the MCP server: a malformed message is a JSON-RPC error, a body that is not
// JSON-RPC is a 400, never a 500, and the server keeps answering. (Bad tool inputs: tools.test.ts.)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND, ensureBuilt } from '../helpers/built.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const TOKEN = 'mcp-secret';

let server: TestServer;

beforeAll(ensureBuilt, 300_000);
beforeAll(async () => {
  server = await startTestServer({ adminToken: TOKEN });
});
afterAll(() => server.close());

const accept = 'application/json, text/event-stream';

function post(body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/__admin/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept, ...headers },
    body,
  });
}

const rpc = (method: string, params?: unknown, id = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

describe('POST /__admin/mcp with garbage', () => {
  it.each([
    ['a body that is not JSON', '{"jsonrpc": "2.0", "id": 1, "method":'],
    ['JSON that is not JSON-RPC', '{"hello": "world"}'],
    ['a batch of numbers', '[1, 2, 3]'],
    ['an empty body', ''],
  ])('answers %s with 400 and a JSON-RPC error', async (_what, body) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } });
  });

  it.each([
    ['an unknown method', rpc('tools/destroy', {}), -32601],
    ['tools/call with a number for a name', rpc('tools/call', { name: 42, arguments: {} }), -32602],
    ['tools/call with a list for its arguments', rpc('tools/call', { name: 'status', arguments: [1] }), -32602],
  ])('answers %s with a JSON-RPC error, not a 500', async (_what, body, code) => {
    const response = await post(body);
    expect(response.status).toBeLessThan(500);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code } });
  });

  it('asks for the admin token (401) and refuses GET (405); a good call still works after all of it', async () => {
    expect((await post(rpc('tools/list'), { authorization: 'Bearer wrong' })).status).toBe(401);
    const get = await fetch(`${server.url}/__admin/mcp`, { headers: { authorization: `Bearer ${TOKEN}`, accept } });
    expect(get.status).toBe(405);
    const listed = await post(rpc('tools/list'));
    expect(listed.status).toBe(200);
    const { tools } = ((await listed.json()) as { result: { tools: Array<{ name: string }> } }).result;
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['status', 'journal', 'verify']));
  });
});

describe('model-gateway-mock mcp with garbage on stdin and a wrong --admin-token', () => {
  it('skips a line that is not JSON-RPC, and answers the next with a tool error that says 401', async () => {
    const cli = [...COMMAND, 'mcp', '--url', server.url, '--admin-token', 'wrong'];
    const child = spawn(process.execPath, cli, { stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      child.stdin.write('this is not json\n{"also": "not json-rpc"}\n');
      child.stdin.write(`${rpc('tools/call', { name: 'status', arguments: {} }, 7)}\n`);
      const answer = JSON.parse((await lines.next()).value as string) as { id: number; result: { content: Array<{ text: string }>; isError: boolean } };
      expect(answer).toMatchObject({ id: 7, result: { isError: true } });
      expect(answer.result.content[0]!.text).toContain('The admin API needs "Authorization: Bearer <admin token>". (GET /__admin/health answered 401)');
    } finally {
      child.kill();
    }
  });
});
