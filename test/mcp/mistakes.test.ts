// What an MCP client gets wrong: a bad input to any tool is a tool error naming the field, an
// unknown tool or a malformed message is a JSON-RPC error, a body that is not JSON-RPC is a 400;
// never a 500, and the server keeps answering.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { call, connect, ok, type Transport } from './connect.js';

const TOKEN = 'mcp-secret';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    adminToken: TOKEN,
    scenarioFiles: { 'errors.yaml': 'scenarios:\n  - name: rate_limit\n    steps:\n      - { error: rate_limit }\n' },
  });
});
afterAll(() => server.close());

/** Each tool with inputs it must refuse, and what the refusal must name. */
const MISTAKES: Array<[string, Record<string, unknown>, string]> = [
  ['status', { verbose: true }, "Invalid value for 'arguments'"],
  ['list_fixtures', { session: 5 }, "Invalid value for 'session'"],
  ['list_fixtures', { session: 'nobody' }, "the session 'nobody' holds no state. Known sessions: default"],
  ['add_fixture', {}, "Missing required argument 'yaml'"],
  ['add_fixture', { yaml: 'chat: [' }, "Invalid value for 'yaml': line 1"],
  ['add_fixture', { yaml: 'chat:\n  - reply: 5\n' }, 'chat[0].reply'],
  ['add_fixture', { yaml: 'images: []\n' }, 'Only chat fixtures can be added at run time'],
  ['add_fixture', { yaml: 'chat: []\n', file: '../outside.yaml' }, "The file name '../outside.yaml'"],
  ['add_fixture', { yaml: 'chat: []\n', file: 'a.yaml', session: 's' }, "Invalid value for 'file'"],
  ['list_scenarios', { all: 1 }, "Invalid value for 'arguments'"],
  ['set_scenario', {}, "Missing required argument 'name'"],
  ['set_scenario', { name: 'meltdown' }, 'Known scenarios: rate_limit'],
  ['clear_scenario', { session: 1 }, "Invalid value for 'session'"],
  ['journal', { status: 'teapot' }, "Invalid value for 'status'"],
  ['journal', { limit: 0 }, "Invalid value for 'limit'"],
  ['journal', { session: 'nobody' }, "the session 'nobody' holds no state"],
  ['explain_request', {}, "Missing required argument 'id'"],
  ['explain_request', { id: 'req_nope' }, "Invalid value for 'id': no journal entry has the id 'req_nope'"],
  ['fixture_from_request', { id: 7 }, "Invalid value for 'id'"],
  ['fixture_from_request', { id: 'req_nope', file: 'x.yaml' }, "no journal entry has the id 'req_nope'"],
  ['advance_clock', {}, 'advance_ms'],
  ['advance_clock', { advance_ms: -1 }, "Invalid value for 'advance_ms'"],
  ['advance_clock', { set: 'yesterday' }, "Invalid value for 'set'"],
  ['advance_clock', { advance_ms: 1, set: '2030-01-01' }, 'not both'],
  ['reset', { session: ['a'] }, "Invalid value for 'session'"],
];

describe.each<Transport>(['http', 'stdio'])('mistakes over %s', (transport) => {
  let client: Client;

  beforeAll(async () => {
    client = await connect(transport, server.url, TOKEN);
  });
  afterAll(() => client.close());

  it('answers a bad input to every tool with a tool error naming the field, and keeps answering', async () => {
    const tools = new Set<string>();
    for (const [tool, args, named] of MISTAKES) {
      const answer = await call(client, tool, args);
      expect({ tool, args, ...answer }).toEqual({ tool, args, isError: true, text: expect.stringContaining(named) });
      tools.add(tool);
    }
    expect([...tools].sort()).toEqual((await client.listTools()).tools.map((t) => t.name).sort());
    expect(await ok(client, 'status')).toContain('The mock is ok.');
  });

  it('answers an unknown tool with a JSON-RPC error naming the known ones', async () => {
    const error = await client.callTool({ name: 'delete_everything', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('Known tools: status, list_fixtures') });
  });
});

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
    expect(((await listed.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(11);
  });
});

describe('model-gateway-mock mcp with garbage on stdin and a wrong --admin-token', () => {
  it('skips a line that is not JSON-RPC, and answers the next with a tool error that says 401', async () => {
    const cli = ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'src', 'cli.ts'), 'mcp', '--url', server.url, '--admin-token', 'wrong'];
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
