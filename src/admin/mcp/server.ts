// The MCP server over any transport: lists the tools with their JSON Schemas and runs a call.
// A bad input or a failed admin call is a tool result with `isError` (the model reads it and
// tries again); an unknown tool or a malformed request is a JSON-RPC error.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestParamsSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { MockError } from '../../conversation/errors.js';
import { formatPath } from '../../conversation/field-path.js';
import { parseBody, type IssueWording } from '../../styles/validate.js';
import type { AdminClient } from '../client.js';
import { AdminUnreachable } from '../http-client.js';
import { ToolError } from './calls.js';
import type { Tool } from './tool.js';
import { TOOLS } from './tools.js';
import { PACKAGE_VERSION } from '../../package-root.js';

// src/admin/mcp/ and dist/admin/mcp/ lie equally deep below the package.

const INSTRUCTIONS =
  'model-gateway-mock stands in for model APIs (OpenAI, Anthropic, Gemini styles, images, videos). ' +
  'Use these tools to set failure scenarios, add fixtures (canned replies), read the request journal and explain why a request got its answer.';

function inputSchema(tool: Tool): { type: 'object'; [key: string]: unknown } {
  // `io: 'input'` lists a property with a default as optional, as a caller may leave it out.
  const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.input, { io: 'input' });
  return { ...schema, type: 'object' };
}

const argumentWording: IssueWording = ({ field, missing, detail }) =>
  missing ? `Missing required argument '${field}'.` : `Invalid value for '${field || 'arguments'}': ${detail}.`;

function text(message: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: message }], ...(isError ? { isError } : {}) };
}

async function callTool(admin: AdminClient, tool: Tool, args: unknown): Promise<CallToolResult> {
  try {
    const input = parseBody(tool.input, args ?? {}, argumentWording);
    return text(await tool.run(admin, input as never));
  } catch (error) {
    if (error instanceof ToolError || error instanceof AdminUnreachable) return text(error.message, true);
    if (error instanceof MockError) return text(error.message, true);
    return text(`The tool ${tool.name} failed inside the mock: ${(error as Error).message}`, true);
  }
}

// The SDK's own schema would answer malformed params with -32603 (internal error); taking them
// as they come lets a malformed call get -32602 (invalid params) naming the field.
const callToolMessage = z.object({ method: z.literal('tools/call'), params: z.unknown() });

function callParams(params: unknown): z.infer<typeof CallToolRequestParamsSchema> {
  const parsed = CallToolRequestParamsSchema.safeParse(params);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new McpError(ErrorCode.InvalidParams, `Invalid params of tools/call: ${formatPath(['params', ...issue.path])}: ${issue.message}.`);
}

export function mcpServer(admin: AdminClient): Server {
  const server = new Server({ name: 'model-gateway-mock', version: PACKAGE_VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: inputSchema(tool) })),
  }));
  server.setRequestHandler(callToolMessage, (request) => {
    const params = callParams(request.params);
    const tool = TOOLS.find((t) => t.name === params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${params.name}'. Known tools: ${TOOLS.map((t) => t.name).join(', ')}.`);
    }
    return callTool(admin, tool, params.arguments);
  });
  return server;
}
