// `model-gateway-mock mcp --url URL`: the MCP tools over stdio, for assistants that only start
// commands; every call goes to the running mock's admin API at URL.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { httpAdmin } from '../http-client.js';
import { mcpServer } from './server.js';

export async function serveStdio(url: string, adminToken: string | undefined): Promise<void> {
  const server = mcpServer(httpAdmin(url, adminToken));
  await server.connect(new StdioServerTransport());
}
