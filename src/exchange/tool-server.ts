// One fake MCP server (SPEC 22) as the official SDK's Server, for any transport: `tools/list`
// answers exactly the tools declared now (each request reads the configuration in force), a call
// is planned by exchange/tool-call.ts, waited, answered and served. A reload that changes the
// server's tools tells the client with `notifications/tools/list_changed`.
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpServerFake } from '../conversation/mcp-tools.js';
import type { Config } from '../config/types.js';
import { PACKAGE_VERSION } from '../package-root.js';
import type { Session } from '../state/session.js';
import type { Mock } from './mock.js';
import { planToolCall } from './tool-call.js';

export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What the transport knows of a call: its mock session, its request's headers, and how to drop its connection. */
export interface ToolDoor {
  session(extra: CallExtra): Session;
  headers(extra: CallExtra): Readonly<Record<string, string | string[] | undefined>>;
  reset(extra: CallExtra): void;
}

function fakeOf(mock: Mock, name: string): McpServerFake {
  const fake = mock.store.current.mcp.get(name);
  if (!fake) throw new McpError(ErrorCode.InvalidRequest, `The MCP server "${name}" is no longer declared in the fixtures.`);
  return fake;
}

const listed = (fake: McpServerFake | undefined) =>
  fake
    ? [...fake.tools.values()].map(({ spec, input }) => ({
        name: spec.name,
        ...(spec.title === undefined ? {} : { title: spec.title }),
        ...(spec.description === undefined ? {} : { description: spec.description }),
        inputSchema: input as { type: 'object' },
        ...(spec.output === undefined ? {} : { outputSchema: spec.output as { type: 'object' } }),
      }))
    : [];

/** A server for `name`; `close()` it when its transport ends, so it hears of no more reloads. */
export function toolServer(mock: Mock, name: string, door: ToolDoor): Server {
  const server = new Server({ name, version: PACKAGE_VERSION }, { capabilities: { tools: { listChanged: true }, resources: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed(fakeOf(mock, name)) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const fake = fakeOf(mock, name);
    const plan = planToolCall(mock, { server: fake, name: request.params.name, args: request.params.arguments ?? {}, session: door.session(extra), headers: door.headers(extra) });
    try {
      if (plan.waitMs > 0) await sleep(plan.waitMs, undefined, { signal: extra.signal });
    } finally {
      plan.done();
    }
    const { answer } = plan;
    if ('refused' in answer) throw new McpError(ErrorCode.InvalidParams, answer.refused);
    if ('reset' in answer) {
      door.reset(extra);
      // The connection is gone: nothing is ever answered.
      return new Promise<never>(() => {});
    }
    return answer.result;
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: (fakeOf(mock, name).spec.resources ?? []).map((r) => ({ uri: r.uri, name: r.name ?? r.uri, ...(r.mime_type ? { mimeType: r.mime_type } : {}) })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const resource = fakeOf(mock, name).spec.resources?.find((r) => r.uri === request.params.uri);
    if (!resource) throw new McpError(ErrorCode.InvalidParams, `No resource "${request.params.uri}" on MCP server "${name}".`);
    return { contents: [{ uri: resource.uri, text: resource.text, ...(resource.mime_type ? { mimeType: resource.mime_type } : {}) }] };
  });
  let tools = listed(mock.store.current.mcp.get(name));
  const heard = (config: Config) => {
    const now = listed(config.mcp.get(name));
    if (isDeepStrictEqual(now, tools)) return;
    tools = now;
    void server.sendToolListChanged().catch(() => {});
  };
  mock.store.swapped.add(heard);
  const closed = server.onclose;
  server.onclose = () => {
    mock.store.swapped.delete(heard);
    closed?.();
  };
  return server;
}
