// The `mcp:` section of a fixtures file (SPEC 22): the tool servers the mock fakes, their tools
// with JSON Schemas for input and output, the replies by argument match, and resources.
import * as z from 'zod';
import { madeAtFirstUse } from './first-use.js';

/** Made when the configuration schemas are first asked for (`config/schema.ts`), not at load. */
function build() {
  const jsonObject = z.record(z.string(), z.unknown());

  const textBlock = z.strictObject({ type: z.literal('text'), text: z.string() });
  // Other kinds of content pass as written: the MCP client checks their fields itself.
  const otherBlock = z.looseObject({ type: z.enum(['image', 'audio', 'resource', 'resource_link']) });

  const mcpReplySchema = z.strictObject({
    name: z.string().optional(),
    match: z.strictObject({ args: jsonObject.optional(), session: z.string().optional() }).optional(),
    /** `structuredContent`, checked against the tool's `output` at load. */
    structured: jsonObject.optional(),
    content: z.array(z.union([textBlock, otherBlock])).optional(),
    /** A tool result with `isError: true` saying this. */
    error: z.string().optional(),
  });

  const mcpToolSchema = z.strictObject({
    // The MCP specification's tool names: 1 to 128 of these characters.
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, { error: 'a tool name is 1 to 128 letters, digits, `_`, `-` or `.`' }),
    title: z.string().optional(),
    description: z.string().optional(),
    input: jsonObject.optional(),
    output: jsonObject.optional(),
    replies: z.array(mcpReplySchema).optional(),
  });

  const mcpResourceSchema = z.strictObject({
    uri: z.string().min(1),
    name: z.string().optional(),
    mime_type: z.string().optional(),
    text: z.string(),
  });

  const mcpServerSchema = z.strictObject({
    server: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'a server name is 1 to 64 letters, digits, `_` or `-`: it is a path segment, /mcp/{server}' }),
    description: z.string().optional(),
    tools: z.array(mcpToolSchema),
    resources: z.array(mcpResourceSchema).optional(),
  });
  return { mcpReplySchema, mcpToolSchema, mcpResourceSchema, mcpServerSchema };
}

export type McpSchemas = ReturnType<typeof build>;

/** The schemas, built once, at their first use. */
export const mcpSchemas: () => McpSchemas = madeAtFirstUse(build);

export type McpServerSpec = z.infer<McpSchemas['mcpServerSchema']>;
export type McpToolSpec = z.infer<McpSchemas['mcpToolSchema']>;
export type McpReplySpec = z.infer<McpSchemas['mcpReplySchema']>;
