// The fake MCP servers over streamable HTTP at /mcp/{server} (SPEC 22), not to be confused with
// the mock's own control plane at /__admin/mcp: the official SDK's transport, one per MCP
// session, so that a GET stream can carry `notifications/tools/list_changed` after a reload.
// No gateway key and no admin token: an agent's tool servers have their own auth. The transport's
// own requests (initialize, tools/list, the stream) are not journaled: each tool call is, once.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { failure } from '../conversation/errors.js';
import type { Mock } from '../exchange/mock.js';
import type { CallExtra, ToolDoor } from '../exchange/tool-server.js';
import { DEFAULT_SESSION } from '../state/sessions.js';
import { mcpBodyText, parsedOrUndefined, rpcError, webRequest, writeResponse } from './mcp.js';
import type { MockState } from './state.js';

/** Open MCP sessions a mock keeps; past it the oldest is closed (its client must initialize again). */
const MAX_OPEN = 256;

interface Open {
  server: string;
  transport: import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js').WebStandardStreamableHTTPServerTransport;
  close(): Promise<void>;
  /** The HTTP request each tool call in flight came on, by JSON-RPC id, so `reset` drops its connection. */
  calls: Map<string, Context>;
}

let sdk:
  | Promise<[typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), typeof import('../exchange/tool-server.js')]>
  | undefined;

const opened = new WeakMap<Mock, Map<string, Open>>();

function door(mock: Mock, calls: Map<string, Context>): ToolDoor {
  const header = (extra: CallExtra, name: string) => {
    const value = extra.requestInfo?.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return {
    session: (extra) => mock.sessions.get(header(extra, 'x-mock-session') || DEFAULT_SESSION),
    headers: (extra) => extra.requestInfo?.headers ?? {},
    reset: (extra) => calls.get(String(extra.requestId))?.req.socket.destroy(),
  };
}

function callIds(parsed: unknown): string[] {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return messages.flatMap((m) => (m && typeof m === 'object' && (m as { method?: unknown }).method === 'tools/call' && 'id' in m ? [String((m as { id: unknown }).id)] : []));
}

export function toolServerEndpoint(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const name = (ctx.params as { server: string }).server;
    if (!mock.store.current.mcp.has(name)) {
      const names = [...mock.store.current.mcp.keys()].map((n) => `/mcp/${n}`).join(', ') || 'none (declare them in an `mcp:` section of a fixtures file)';
      throw failure('mcp_server_not_found', `No MCP server "${name}" is declared. MCP servers: ${names}.`);
    }
    (ctx.state as MockState).unjournaled = true;
    const [{ WebStandardStreamableHTTPServerTransport }, { toolServer }] = await (sdk ??= Promise.all([
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      import('../exchange/tool-server.js'),
    ]));
    const sessions = opened.get(mock) ?? opened.set(mock, new Map()).get(mock)!;
    const sessionId = ctx.get('mcp-session-id');
    let open = sessionId ? sessions.get(sessionId) : undefined;
    if (sessionId && open?.server !== name) return rpcError(ctx, 404, -32001, `Session not found: no MCP session "${sessionId}" is open on /mcp/${name}; initialize a new one.`);
    if (!open) {
      const calls = new Map<string, Context>();
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          if (sessions.size >= MAX_OPEN) void sessions.values().next().value?.close();
          sessions.set(id, fresh);
        },
        onsessionclosed: (id) => void sessions.delete(id),
      });
      const server = toolServer(mock, name, door(mock, calls));
      const fresh: Open = { server: name, transport, calls, close: () => server.close() };
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await server.connect(transport);
      open = fresh;
    }
    let parsed: unknown;
    let request: Request;
    if (ctx.method === 'POST') {
      const text = await mcpBodyText(ctx, mock);
      if (text === undefined) return;
      parsed = parsedOrUndefined(text);
      request = webRequest(ctx, text);
    } else {
      request = webRequest(ctx, undefined as unknown as string);
    }
    const ids = callIds(parsed);
    for (const id of ids) open.calls.set(id, ctx);
    try {
      const response = await open.transport.handleRequest(request, parsed === undefined ? undefined : { parsedBody: parsed });
      if (!open.transport.sessionId) await open.close();
      if (response.headers.get('content-type')?.startsWith('text/event-stream') && response.body) {
        // The stream a GET opens stays open for notifications: passed on as it comes.
        ctx.status = response.status;
        for (const [key, value] of response.headers) ctx.set(key, value);
        ctx.body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
        return;
      }
      await writeResponse(ctx, response);
    } finally {
      for (const id of ids) open.calls.delete(id);
    }
  };
}
