// MCP clients of a test server, over both transports: the SDK's own client on POST /__admin/mcp,
// and the same client driving `model-gateway-mock mcp --url` started as a child process.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { COMMAND } from '../helpers/built.js';

export type Transport = 'http' | 'stdio';

export async function connect(transport: Transport, url: string, adminToken: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  if (transport === 'http') {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/__admin/mcp`), { requestInit: { headers: { authorization: `Bearer ${adminToken}` } } }));
  } else {
    const env = { ...process.env, MOCK_ADMIN_TOKEN: adminToken } as Record<string, string>;
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...COMMAND, 'mcp', '--url', url], env, stderr: 'pipe' }));
  }
  return client;
}

/** The text of a tool's answer, and whether it was a tool error. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return { text, isError: result.isError === true };
}

/** A tool's answer that must have succeeded. */
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const { text, isError } = await call(client, name, args);
  if (isError) throw new Error(`${name} answered a tool error: ${text}`);
  return text;
}
