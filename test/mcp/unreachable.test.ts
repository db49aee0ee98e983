// The stdio bridge's tools when the mock at --url is not there: each call is a tool error that
// says so, and the bridge keeps answering. The MCP server runs in-process over the SDK's in-memory
// transport, with the same HTTP admin client the bridge uses.
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { httpAdmin } from '../../src/admin/http-client.js';
import { mcpServer } from '../../src/admin/mcp/server.js';
import { call } from './connect.js';

/** A loopback port that nothing listens on: one the system gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

describe('the MCP tools with no mock at --url', () => {
  it('answer each call with a tool error naming the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await mcpServer(httpAdmin(url)).connect(serverSide);
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await client.connect(clientSide);
    for (const [tool, args] of [['status', {}], ['journal', { limit: 5 }], ['set_scenario', { name: 'rate_limit' }]] as const) {
      expect(await call(client, tool, args)).toEqual({ isError: true, text: expect.stringContaining(`The mock at ${url} cannot be reached`) });
    }
    await client.close();
  });
});
