// `POST /__admin/mcp`: the MCP tools over the streamable HTTP transport, stateless: each request
// gets a fresh server and transport, and the tools call the admin operations in this process.
// The transport answers protocol mistakes itself (a body that is not JSON or not JSON-RPC: 400
// with a JSON-RPC error); its answer goes out through the one writer. The body is read here first,
// so that its size and a batch's length are bounded before any message runs (MCP_BOUNDS).
import type { Context } from 'koa';
import { inProcessAdmin } from '../admin/client.js';
import { MCP_BOUNDS } from '../admin/mcp/bounds.js';
import type { Mock } from '../exchange/mock.js';
import { MockError } from '../conversation/errors.js';
import { MAX_BODY_DEPTH, tooDeepToParse } from '../conversation/json-text.js';
import { readWireText, refuseAnnounced } from './wire-body.js';
import { write } from './writer.js';

export function webRequest(ctx: Context, body: string | ReadableStream<Uint8Array>): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  // The transport reads only the path of the URL; the client's Host header is no concern of it.
  return new Request(`http://localhost${ctx.path}`, { method: ctx.method, headers, body, duplex: 'half' } as RequestInit);
}

export function rpcError(ctx: Context, status: number, code: number, message: string): Promise<void> {
  return write(ctx, { kind: 'json', status, headers: {}, body: { jsonrpc: '2.0', error: { code, message }, id: null } });
}

export function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The transport parses it again and answers its own parse error.
    return undefined;
  }
}

/**
 * An MCP request's body text, at most the MCP bound (or the mock's smaller body limit); over it,
 * or nested too deep to parse, undefined once the 413 or the parse error is written. The refused
 * rest is read and dropped within the drain bound (server/wire-body.ts), so a client still writing
 * sees the 413, not a reset (SPEC 11, "Connections").
 */
export async function mcpBodyText(ctx: Context, mock: Mock): Promise<string | undefined> {
  const limit = Math.min(MCP_BOUNDS.bodyBytes, mock.options.bodyLimitBytes);
  const announced = Number(ctx.get('content-length'));
  try {
    if (announced > limit) throw refuseAnnounced(ctx, limit);
    const { text } = await readWireText(ctx.req, limit);
    if (!tooDeepToParse(text)) return text;
    // The transport would parse it whole: 8 MB of brackets would hold the loop for seconds.
    await rpcError(ctx, 400, -32700, `Parse error: the JSON nests deeper than ${MAX_BODY_DEPTH} levels.`);
    return undefined;
  } catch (error) {
    if (!(error instanceof MockError && error.kind === 'too_large')) throw error;
    // The SDK's own words for it, as its transport answers when it reads the body itself.
    await rpcError(ctx, 413, -32000, `Payload Too Large: Request body must not exceed ${limit} bytes`);
    return undefined;
  }
}

export async function writeResponse(ctx: Context, response: Response): Promise<void> {
  const headers = Object.fromEntries(response.headers);
  const contentType = headers['content-type'] ?? 'application/json';
  delete headers['content-type'];
  await write(ctx, { kind: 'binary', status: response.status, headers, contentType, data: new Uint8Array(await response.arrayBuffer()) });
}

/** The MCP SDK, loaded with the first MCP request: it was a quarter of the start-up's module loading. */
let sdk:
  | Promise<
      [typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), typeof import('../admin/mcp/server.js')]
    >
  | undefined;

export function mcpEndpoint(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const [{ WebStandardStreamableHTTPServerTransport }, { mcpServer }] = await (sdk ??= Promise.all([
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      import('../admin/mcp/server.js'),
    ]));
    const text = await mcpBodyText(ctx, mock);
    if (text === undefined) return;
    const parsed = parsedOrUndefined(text);
    if (Array.isArray(parsed) && parsed.length > MCP_BOUNDS.batchMessages) {
      return rpcError(ctx, 400, -32600, `Invalid Request: a batch holds at most ${MCP_BOUNDS.batchMessages} messages; this one holds ${parsed.length}.`);
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MCP_BOUNDS.bodyBytes });
    const server = mcpServer(inProcessAdmin(mock));
    await server.connect(transport);
    try {
      const request = webRequest(ctx, text);
      await writeResponse(ctx, await transport.handleRequest(request, parsed === undefined ? undefined : { parsedBody: parsed }));
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
