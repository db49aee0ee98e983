// `POST /__admin/mcp`: the MCP tools over the streamable HTTP transport, stateless: each request
// gets a fresh server and transport, and the tools call the admin operations in this process.
// The transport answers protocol mistakes itself (a body that is not JSON or not JSON-RPC: 400
// with a JSON-RPC error); its answer goes out through the one writer.
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { inProcessAdmin } from '../admin/client.js';
import type { Mock } from '../exchange/mock.js';
import { write } from './writer.js';

function webRequest(ctx: Context): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const body = Readable.toWeb(ctx.req) as ReadableStream<Uint8Array>;
  // The transport reads only the path of the URL; the client's Host header is no concern of it.
  return new Request(`http://localhost${ctx.path}`, { method: ctx.method, headers, body, duplex: 'half' } as RequestInit);
}

async function writeResponse(ctx: Context, response: Response): Promise<void> {
  const headers = Object.fromEntries(response.headers);
  const contentType = headers['content-type'] ?? 'application/json';
  delete headers['content-type'];
  await write(ctx, { kind: 'binary', status: response.status, headers, contentType, data: new Uint8Array(await response.arrayBuffer()) });
}

/** The MCP SDK, loaded with the first MCP request: it was a quarter of the start-up's module loading. */
let sdk: Promise<[typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), typeof import('../admin/mcp/server.js')]> | undefined;

export function mcpEndpoint(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const [{ WebStandardStreamableHTTPServerTransport }, { mcpServer }] = await (sdk ??= Promise.all([
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      import('../admin/mcp/server.js'),
    ]));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: mock.options.bodyLimitBytes,
    });
    const server = mcpServer(inProcessAdmin(mock));
    await server.connect(transport);
    try {
      await writeResponse(ctx, await transport.handleRequest(webRequest(ctx)));
    } finally {
      await server.close();
    }
  };
}

/** GET (a server-sent stream) and DELETE (ending a session) mean nothing to a stateless server. */
export async function mcpMethodNotAllowed(ctx: Context): Promise<void> {
  await write(ctx, {
    kind: 'json',
    status: 405,
    headers: { allow: 'POST' },
    body: { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send POST.' }, id: null },
  });
}
