// The content blocks a messages-style request may carry, as the vendor validates them: a block of
// an unknown type, or a known type missing a field, is a 400 naming `messages.N.content.M...`.
import * as z from 'zod';
import { madeAtFirstUse } from '../../conversation/first-use.js';
import { jsonObject } from '../json-object.js';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** The blocks' schemas, made at the first messages request: a start that serves none builds none. */
export const blockSchemas = madeAtFirstUse(() => {
  const urlSource = z.looseObject({ type: z.literal('url'), url: z.string().min(1) });
  /** Files API ids; the gateway has no Files API, so decoding refuses them with a clear message. */
  const fileSource = z.looseObject({ type: z.literal('file'), file_id: z.string() });

  const textBlock = z.looseObject({
    type: z.literal('text'),
    text: z.string().min(1, 'text content blocks must be non-empty'),
  });

  const imageBlock = z.looseObject({
    type: z.literal('image'),
    source: z.discriminatedUnion('type', [
      z.looseObject({ type: z.literal('base64'), media_type: z.enum(IMAGE_TYPES), data: z.string().min(1) }),
      urlSource,
      fileSource,
    ]),
  });

  const documentBlock = z.looseObject({
    type: z.literal('document'),
    source: z.discriminatedUnion('type', [
      z.looseObject({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: z.string().min(1) }),
      z.looseObject({ type: z.literal('text'), media_type: z.literal('text/plain'), data: z.string() }),
      z.looseObject({ type: z.literal('content'), content: z.union([z.string(), z.array(z.union([textBlock, imageBlock]))]) }),
      urlSource,
      fileSource,
    ]),
  });

  const searchResultBlock = z.looseObject({
    type: z.literal('search_result'),
    source: z.string(),
    title: z.string(),
    content: z.array(textBlock),
  });

  /** A tool the result makes available (tool search), and a browser's tabs: context a mock reads no words from. */
  const toolReferenceBlock = z.looseObject({ type: z.literal('tool_reference'), tool_name: z.string().min(1) });
  const browserStateBlock = z.looseObject({ type: z.literal('browser_state'), tabs: z.array(z.looseObject({})) });

  const toolResultBlock = z.looseObject({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1),
    content: z
      .union([z.string(), z.array(z.discriminatedUnion('type', [textBlock, imageBlock, documentBlock, searchResultBlock, toolReferenceBlock, browserStateBlock]))])
      .optional(),
    is_error: z.boolean().optional(),
  });

  const toolUseBlock = z.looseObject({
    type: z.literal('tool_use'),
    id: z.string().min(1),
    name: z.string().min(1),
    input: jsonObject(),
  });

  const thinkingBlock = z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
  const redactedThinkingBlock = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() });

  /** Server-tool blocks (web search, code execution...) that a client echoes back: accepted, not modelled. */
  const serverBlock = z.looseObject({
    type: z.enum([
      'server_tool_use',
      'web_search_tool_result',
      'web_fetch_tool_result',
      'code_execution_tool_result',
      'bash_code_execution_tool_result',
      'text_editor_code_execution_tool_result',
      'tool_search_tool_result',
      'container_upload',
      'mcp_tool_use',
      'mcp_tool_result',
      'compaction',
    ]),
  });

  const contentBlock = z.discriminatedUnion('type', [
    textBlock,
    imageBlock,
    documentBlock,
    searchResultBlock,
    toolResultBlock,
    toolUseBlock,
    thinkingBlock,
    redactedThinkingBlock,
    serverBlock,
  ]);
  return { contentBlock, textBlock, imageBlock, documentBlock, toolResultBlock };
});

type BlockSchemas = ReturnType<typeof blockSchemas>;
export type ContentBlock = z.infer<BlockSchemas['contentBlock']>;
export type ImageBlock = z.infer<BlockSchemas['imageBlock']>;
export type DocumentBlock = z.infer<BlockSchemas['documentBlock']>;
export type ToolResultBlock = z.infer<BlockSchemas['toolResultBlock']>;
export type ToolResultContent = Exclude<ToolResultBlock['content'], string | undefined>[number];
