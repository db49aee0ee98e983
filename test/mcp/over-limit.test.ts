// A body over the MCP bound (an 8 MB `add_fixture` request, or a tool call as large) is refused with
// a 413 whose JSON-RPC error the client reads, even while it is still writing: the rest is read and
// dropped (SPEC 11, "Connections"), and the next request on the same connection is answered. A body
// nested too deep is refused before the transport parses it whole.
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_BOUNDS } from '../../src/admin/mcp/bounds.js';
import { MAX_BODY_DEPTH } from '../../src/conversation/json-text.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { WEATHER } from '../tools/weather.js';

let server: TestServer;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'weather.yaml': WEATHER } });
});
afterAll(async () => {
  agent.destroy();
  await server.close();
});

interface Answer {
  status: number;
  text: string;
  socket: object;
}

/** A Node client that writes the whole body whatever the server does meanwhile, as the MCP SDK's fetch does. */
function post(path: string, body: string, chunked: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const framing = chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(Buffer.byteLength(body)) };
    const req = request(
      { host: '127.0.0.1', port: server.port, method: 'POST', path, agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...framing } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString(), socket: req.socket! }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const addFixture = (bytes: number) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add_fixture', arguments: { yaml: `chat:\n  - reply: { text: "${'x'.repeat(bytes)}" }\n` } } });
const listTools = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

describe('an MCP body over the bound', () => {
  it.each([
    ['/__admin/mcp', false],
    ['/__admin/mcp', true],
    ['/mcp/weather', false],
    ['/mcp/weather', true],
  ] as const)('%s (chunked: %s): 413 with a JSON-RPC error, then the connection answers the next request', async (path, chunked) => {
    const refused = await post(path, addFixture(12 * 1024 * 1024), chunked);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.text)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: `Payload Too Large: Request body must not exceed ${MCP_BOUNDS.bodyBytes} bytes` }, id: null });
    const next = await post(path === '/__admin/mcp' ? path : '/__admin/mcp', listTools, false);
    expect(next.status).toBe(200);
    expect(next.socket).toBe(refused.socket);
    expect(JSON.parse(next.text).result.tools.map((tool: { name: string }) => tool.name)).toContain('add_fixture');
  });
});

describe('an MCP body nested too deep to parse', () => {
  it.each(['/__admin/mcp', '/mcp/weather'])('%s: a JSON-RPC parse error, the text never given to the transport', async (path) => {
    const refused = await post(path, `${'['.repeat(200_000)}${']'.repeat(200_000)}`, false);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: the JSON nests deeper than ${MAX_BODY_DEPTH} levels.` }, id: null });
  });
});
