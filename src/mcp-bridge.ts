// `model-gateway-mock mcp-serve SERVER --url URL`: stdio on one side, the fake MCP server a running
// mock serves at URL/mcp/SERVER on the other. Each message passes through as it is, so that mock
// answers the tool calls and journals them beside its model requests, in the session given: a test
// reads and verifies the agent's whole loop there, though the agent started this process itself.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Passes messages between stdin/stdout and `url`'s `/mcp/{name}` until stdin closes. */
export async function bridgeToolServer(name: string, url: string, session: string): Promise<void> {
  const target = new URL(`/mcp/${encodeURIComponent(name)}`, url);
  const remote = new StreamableHTTPClientTransport(target, { requestInit: { headers: { 'x-mock-session': session } } });
  const local = new StdioServerTransport();
  // A request the mock could not be asked gets its reason as the answer, so the agent shows it.
  const refuse = (message: JSONRPCMessage, error: Error): void => {
    if ('id' in message && 'method' in message) void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `${target.href}: ${error.message}` } });
    else process.stderr.write(`${target.href}: ${error.message}\n`);
  };
  local.onmessage = (message) => void remote.send(message).catch((error: Error) => refuse(message, error));
  remote.onmessage = (message) => void local.send(message);
  remote.onerror = (error) => process.stderr.write(`${target.href}: ${error.message}\n`);
  local.onclose = () => void remote.close();
  await remote.start();
  await local.start();
}
