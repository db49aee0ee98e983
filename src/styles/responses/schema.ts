// The `POST /v1/responses` body as zod checks it. Objects that come in many kinds (input items,
// content parts, tools, text formats) are checked by the schema their `type` selects, so a
// problem is named where it is (`input[2].call_id`), not as "no union member matched".
import * as z from 'zod';
import { jsonObject } from '../json-object.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A value checked by the schema `select` picks for it; the value passes through as sent. */
function chosen<T>(select: (value: unknown) => z.ZodType): z.ZodType<T> {
  return z.custom<T>().superRefine((value, ctx) => {
    const result = select(value).safeParse(value);
    if (!result.success) for (const issue of result.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
  });
}

/** Picks by `type`; kinds the mock does not model are accepted as long as they name a type. */
function byType(schemas: Record<string, z.ZodType>, typeOf: (value: Record<string, unknown>) => unknown = (v) => v.type) {
  const other = z.looseObject({ type: z.string() });
  return (value: unknown): z.ZodType => {
    if (!isObject(value)) return z.looseObject({});
    const type = typeOf(value);
    return (typeof type === 'string' && Object.hasOwn(schemas, type) ? schemas[type] : undefined) ?? other;
  };
}

const inputText = z.looseObject({ type: z.literal('input_text'), text: z.string() });
const inputImage = z.looseObject({ type: z.literal('input_image'), image_url: z.string().nullish(), file_id: z.string().nullish() });
const inputFile = z.looseObject({
  type: z.literal('input_file'),
  file_data: z.string().nullish(),
  file_url: z.string().nullish(),
  file_id: z.string().nullish(),
  filename: z.string().nullish(),
});
const inputAudio = z.looseObject({ type: z.literal('input_audio'), input_audio: z.looseObject({ data: z.string(), format: z.string() }) });
const outputText = z.looseObject({ type: z.literal('output_text'), text: z.string() });
const refusal = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

export type ContentPart =
  | z.infer<typeof inputText>
  | z.infer<typeof inputImage>
  | z.infer<typeof inputFile>
  | z.infer<typeof inputAudio>
  | z.infer<typeof outputText>
  | z.infer<typeof refusal>
  | { type: string };

const contentPart = chosen<ContentPart>(
  byType({ input_text: inputText, input_image: inputImage, input_file: inputFile, input_audio: inputAudio, output_text: outputText, refusal }),
);
const content = chosen<string | ContentPart[]>((value) => (typeof value === 'string' ? z.string() : z.array(contentPart)));

const message = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content,
});
const functionCall = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
});
const functionCallOutput = z.looseObject({ type: z.literal('function_call_output'), call_id: z.string().min(1), output: content });
const summaryText = z.looseObject({ text: z.string() });
const reasoning = z.looseObject({
  type: z.literal('reasoning'),
  summary: z.array(summaryText),
  content: z.array(summaryText).nullish(),
  encrypted_content: z.string().nullish(),
});
// A freeform tool's earlier call and its result (`ResponseCustomToolCall`, `ResponseCustomToolCallOutput`).
const customToolCall = z.looseObject({
  type: z.literal('custom_tool_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  input: z.string(),
});
const customToolCallOutput = z.looseObject({ type: z.literal('custom_tool_call_output'), call_id: z.string().min(1), output: content });
const itemReference = z.looseObject({ type: z.literal('item_reference').nullish(), id: z.string().min(1) });

export type MessageItem = z.infer<typeof message>;
export type FunctionCallItem = z.infer<typeof functionCall>;
export type FunctionCallOutputItem = z.infer<typeof functionCallOutput>;
export type CustomToolCallItem = z.infer<typeof customToolCall>;
export type CustomToolCallOutputItem = z.infer<typeof customToolCallOutput>;
export type ReasoningItem = z.infer<typeof reasoning>;
export type ItemReference = z.infer<typeof itemReference>;
export type InputItem =
  | MessageItem
  | FunctionCallItem
  | FunctionCallOutputItem
  | CustomToolCallItem
  | CustomToolCallOutputItem
  | ReasoningItem
  | ItemReference
  | AdditionalToolsItem
  | { type: string };

/** What an input item is: `type` when given, else a message (it has a role) or a reference. */
export function itemKind(item: Record<string, unknown>): unknown {
  if (item.type !== undefined && item.type !== null) return item.type;
  return 'role' in item || !('id' in item) ? 'message' : 'item_reference';
}

const functionTool = z.looseObject({
  type: z.literal('function'),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: jsonObject().nullish(),
  strict: z.boolean().nullish(),
});
export type FunctionTool = z.infer<typeof functionTool>;

// `CustomTool`: freeform input, held to `format` (`Shared.CustomToolInputFormat`) when it has a grammar.
const customTool = z.looseObject({
  type: z.literal('custom'),
  name: z.string().min(1),
  description: z.string().nullish(),
  format: z
    .union([
      z.looseObject({ type: z.literal('text') }),
      z.looseObject({ type: z.literal('grammar'), definition: z.string(), syntax: z.enum(['lark', 'regex']) }),
    ])
    .nullish(),
});
export type CustomTool = z.infer<typeof customTool>;

// `NamespaceTool`: functions and custom tools grouped under a name.
const namespaceTool = z.looseObject({
  type: z.literal('namespace'),
  name: z.string().min(1),
  description: z.string(),
  tools: z.array(chosen<FunctionTool | CustomTool>(byType({ function: functionTool, custom: customTool }))),
});
export type NamespaceTool = z.infer<typeof namespaceTool>;
export type Tool = FunctionTool | CustomTool | NamespaceTool | { type: string };
const toolList = z.array(chosen<Tool>(byType({ function: functionTool, custom: customTool, namespace: namespaceTool })));

// `AdditionalToolsItemParam`: tools declared in the input, as Codex declares its own on its default model.
const additionalTools = z.looseObject({ type: z.literal('additional_tools'), role: z.literal('developer'), tools: toolList });
export type AdditionalToolsItem = z.infer<typeof additionalTools>;

const inputItem = chosen<InputItem>(
  byType(
    {
      message,
      function_call: functionCall,
      function_call_output: functionCallOutput,
      custom_tool_call: customToolCall,
      custom_tool_call_output: customToolCallOutput,
      reasoning,
      item_reference: itemReference,
      additional_tools: additionalTools,
    },
    itemKind,
  ),
);

const toolChoiceObject = chosen<{ type: string; name?: string; mode?: string }>(
  byType({
    function: z.looseObject({ type: z.literal('function'), name: z.string().min(1) }),
    custom: z.looseObject({ type: z.literal('custom'), name: z.string().min(1) }),
    allowed_tools: z.looseObject({ type: z.literal('allowed_tools'), mode: z.enum(['auto', 'required']), tools: z.array(z.looseObject({})) }),
  }),
);

const textFormatKinds = z.enum(['text', 'json_object', 'json_schema']);
const jsonSchemaFormat = z.looseObject({
  type: z.literal('json_schema'),
  name: z.string().min(1).max(64),
  schema: jsonObject(),
  description: z.string().nullish(),
  strict: z.boolean().nullish(),
});
export type TextFormat = { type: 'text' } | { type: 'json_object' } | z.infer<typeof jsonSchemaFormat>;

const textFormat = chosen<TextFormat>((value) => {
  const type = isObject(value) ? value.type : undefined;
  if (type === 'json_schema') return jsonSchemaFormat;
  return z.looseObject({ type: textFormatKinds });
});

export const responsesBody = z.looseObject({
  model: z.string().min(1),
  input: chosen<string | InputItem[]>((value) => (typeof value === 'string' ? z.string() : z.array(inputItem))).optional(),
  instructions: z.string().nullish(),
  previous_response_id: z.string().min(1).nullish(),
  tools: toolList.nullish(),
  tool_choice: chosen<string | { type: string; name?: string; mode?: string }>((value) =>
    typeof value === 'string' ? z.enum(['none', 'auto', 'required']) : toolChoiceObject,
  ).nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  max_tool_calls: z.number().int().positive().nullish(),
  reasoning: z
    .looseObject({
      effort: z.string().nullish(),
      summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
      generate_summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
    })
    .nullish(),
  text: z.looseObject({ format: textFormat.optional(), verbosity: z.enum(['low', 'medium', 'high']).nullish() }).nullish(),
  // The vendor refuses limits below 16 tokens; so does the mock, so clients find out here.
  max_output_tokens: z.number().int().min(16, { error: 'integer below minimum value; expected a value >= 16' }).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  truncation: z.enum(['auto', 'disabled']).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_obfuscation: z.boolean().nullish() }).nullish(),
  store: z.boolean().nullish(),
  background: z.boolean().nullish(),
  include: z.array(z.string()).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  user: z.string().nullish(),
  safety_identifier: z.string().nullish(),
  prompt_cache_key: z.string().nullish(),
  service_tier: z.string().nullish(),
});

export type ResponsesBody = z.infer<typeof responsesBody>;
