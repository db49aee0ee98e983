// The `POST /v1/responses` body as zod checks it. Objects that come in many kinds (input items,
// content parts, tools, text formats) are checked by the schema their `type` selects, so a
// problem is named where it is (`input[2].call_id`), not as "no union member matched".
// The schemas are made at the first responses request, not as the module loads: a start built
// them for nothing (about 120 zod calls, 5-14 ms of CPU). They come in layers, each made by a
// memo and each typed from the one before, because a layer's types are inferred from its schemas
// and a schema of the next layer names them.
import * as z from 'zod';
import { madeAtFirstUse } from '../../conversation/first-use.js';
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

/** Content parts. */
const partSchemas = madeAtFirstUse(() => ({
  inputText: z.looseObject({ type: z.literal('input_text'), text: z.string() }),
  inputImage: z.looseObject({ type: z.literal('input_image'), image_url: z.string().nullish(), file_id: z.string().nullish() }),
  inputFile: z.looseObject({
    type: z.literal('input_file'),
    file_data: z.string().nullish(),
    file_url: z.string().nullish(),
    file_id: z.string().nullish(),
    filename: z.string().nullish(),
  }),
  inputAudio: z.looseObject({ type: z.literal('input_audio'), input_audio: z.looseObject({ data: z.string(), format: z.string() }) }),
  outputText: z.looseObject({ type: z.literal('output_text'), text: z.string() }),
  refusal: z.looseObject({ type: z.literal('refusal'), refusal: z.string() }),
}));
type PartSchemas = ReturnType<typeof partSchemas>;

export type ContentPart = z.infer<PartSchemas[keyof PartSchemas]> | { type: string };

/** Input items but the tools declared in the input, the function and custom tools, and a JSON schema format. */
const itemSchemas = madeAtFirstUse(() => {
  const { inputText, inputImage, inputFile, inputAudio, outputText, refusal } = partSchemas();
  const contentPart = chosen<ContentPart>(
    byType({ input_text: inputText, input_image: inputImage, input_file: inputFile, input_audio: inputAudio, output_text: outputText, refusal }),
  );
  const content = chosen<string | ContentPart[]>((value) => (typeof value === 'string' ? z.string() : z.array(contentPart)));
  const summaryText = z.looseObject({ text: z.string() });
  return {
    message: z.looseObject({
      type: z.literal('message').optional(),
      role: z.enum(['user', 'assistant', 'system', 'developer']),
      content,
    }),
    functionCall: z.looseObject({
      type: z.literal('function_call'),
      call_id: z.string().min(1),
      name: z.string().min(1),
      arguments: z.string(),
    }),
    functionCallOutput: z.looseObject({ type: z.literal('function_call_output'), call_id: z.string().min(1), output: content }),
    reasoning: z.looseObject({
      type: z.literal('reasoning'),
      summary: z.array(summaryText),
      content: z.array(summaryText).nullish(),
      encrypted_content: z.string().nullish(),
    }),
    // A freeform tool's earlier call and its result (`ResponseCustomToolCall`, `ResponseCustomToolCallOutput`).
    customToolCall: z.looseObject({
      type: z.literal('custom_tool_call'),
      call_id: z.string().min(1),
      name: z.string().min(1),
      input: z.string(),
    }),
    customToolCallOutput: z.looseObject({ type: z.literal('custom_tool_call_output'), call_id: z.string().min(1), output: content }),
    itemReference: z.looseObject({ type: z.literal('item_reference').nullish(), id: z.string().min(1) }),
    functionTool: z.looseObject({
      type: z.literal('function'),
      name: z.string().min(1),
      description: z.string().nullish(),
      parameters: jsonObject().nullish(),
      strict: z.boolean().nullish(),
    }),
    // `CustomTool`: freeform input, held to `format` (`Shared.CustomToolInputFormat`) when it has a grammar.
    customTool: z.looseObject({
      type: z.literal('custom'),
      name: z.string().min(1),
      description: z.string().nullish(),
      format: z
        .union([
          z.looseObject({ type: z.literal('text') }),
          z.looseObject({ type: z.literal('grammar'), definition: z.string(), syntax: z.enum(['lark', 'regex']) }),
        ])
        .nullish(),
    }),
    jsonSchemaFormat: z.looseObject({
      type: z.literal('json_schema'),
      name: z.string().min(1).max(64),
      schema: jsonObject(),
      description: z.string().nullish(),
      strict: z.boolean().nullish(),
    }),
  };
});
type ItemSchemas = ReturnType<typeof itemSchemas>;

export type MessageItem = z.infer<ItemSchemas['message']>;
export type FunctionCallItem = z.infer<ItemSchemas['functionCall']>;
export type FunctionCallOutputItem = z.infer<ItemSchemas['functionCallOutput']>;
export type CustomToolCallItem = z.infer<ItemSchemas['customToolCall']>;
export type CustomToolCallOutputItem = z.infer<ItemSchemas['customToolCallOutput']>;
export type ReasoningItem = z.infer<ItemSchemas['reasoning']>;
export type ItemReference = z.infer<ItemSchemas['itemReference']>;
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
export type FunctionTool = z.infer<ItemSchemas['functionTool']>;
export type CustomTool = z.infer<ItemSchemas['customTool']>;
export type TextFormat = { type: 'text' } | { type: 'json_object' } | z.infer<ItemSchemas['jsonSchemaFormat']>;

/** What an input item is: `type` when given, else a message (it has a role) or a reference. */
export function itemKind(item: Record<string, unknown>): unknown {
  if (item.type !== undefined && item.type !== null) return item.type;
  return 'role' in item || !('id' in item) ? 'message' : 'item_reference';
}

// `NamespaceTool`: functions and custom tools grouped under a name.
const namespaceTool = madeAtFirstUse(() => {
  const { functionTool, customTool } = itemSchemas();
  return z.looseObject({
    type: z.literal('namespace'),
    name: z.string().min(1),
    description: z.string(),
    tools: z.array(chosen<FunctionTool | CustomTool>(byType({ function: functionTool, custom: customTool }))),
  });
});
export type NamespaceTool = z.infer<ReturnType<typeof namespaceTool>>;
export type Tool = FunctionTool | CustomTool | NamespaceTool | { type: string };

/** The list of tools, and the input item that declares more of them. */
const toolSchemas = madeAtFirstUse(() => {
  const { functionTool, customTool } = itemSchemas();
  const toolList = z.array(chosen<Tool>(byType({ function: functionTool, custom: customTool, namespace: namespaceTool() })));
  // `AdditionalToolsItemParam`: tools declared in the input, as Codex declares its own on its default model.
  const additionalTools = z.looseObject({ type: z.literal('additional_tools'), role: z.literal('developer'), tools: toolList });
  return { toolList, additionalTools };
});
export type AdditionalToolsItem = z.infer<ReturnType<typeof toolSchemas>['additionalTools']>;

/** The body's schema, made at the first responses request. */
export const responsesBody = madeAtFirstUse(() => {
  const items = itemSchemas();
  const { toolList, additionalTools } = toolSchemas();
  const inputItem = chosen<InputItem>(
    byType(
      {
        message: items.message,
        function_call: items.functionCall,
        function_call_output: items.functionCallOutput,
        custom_tool_call: items.customToolCall,
        custom_tool_call_output: items.customToolCallOutput,
        reasoning: items.reasoning,
        item_reference: items.itemReference,
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
  const textFormat = chosen<TextFormat>((value) => {
    const type = isObject(value) ? value.type : undefined;
    if (type === 'json_schema') return items.jsonSchemaFormat;
    return z.looseObject({ type: textFormatKinds });
  });
  return z.looseObject({
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
});

export type ResponsesBody = z.infer<ReturnType<typeof responsesBody>>;
