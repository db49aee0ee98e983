// Chat-completions request body -> neutral ChatRequest. Every field of the gateway description is
// accepted; unknown fields pass (SDKs add new ones all the time), known ones are type-checked.
import { checkGenerationBudget } from '../../conversation/generation-budget.js';
import * as z from 'zod';
import { jsonObject } from '../json-object.js';
import { invalid } from '../../conversation/errors.js';
import { parseClientJson } from '../../conversation/json-text.js';
import type { ChatRequest, Part, ResponseFormat, SystemAt, Turn } from '../../conversation/types.js';
import { measureBody } from '../body-shape.js';
import { urlPart } from '../media.js';
import type { StyleInput } from '../style.js';
import { parseBody } from '../validate.js';
import { imageOutputOf } from './image-config.js';
import { toolChoiceOf, toolDefs, toolSchemas } from './tools.js';
import { madeAtFirstUse } from '../../conversation/first-use.js';

/** The body's schemas, made at the first chat-completions request: a start that serves none builds none. */
const schemas = madeAtFirstUse(() => {
  const { tools, toolChoice } = toolSchemas();
  const contentPart = z.looseObject({
    type: z.string(),
    text: z.string().optional(),
    image_url: z.union([z.string(), z.looseObject({ url: z.string() })]).optional(),
    input_audio: z.looseObject({ data: z.string(), format: z.string() }).optional(),
    file: z.looseObject({ file_data: z.string().optional(), file_id: z.string().optional(), filename: z.string().optional() }).optional(),
  });

  // An earlier call of a function (`ChatCompletionMessageFunctionToolCall`) or of a custom tool
  // (`ChatCompletionMessageCustomToolCall`, its raw `input`).
  const toolCall = z.union([
    z.looseObject({
      id: z.string(),
      type: z.literal('function').optional(),
      function: z.looseObject({ name: z.string(), arguments: z.string() }),
    }),
    z.looseObject({ id: z.string(), type: z.literal('custom'), custom: z.looseObject({ name: z.string(), input: z.string() }) }),
  ]);

  const message = z.looseObject({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
    content: z.union([z.string(), z.array(contentPart)]).nullish(),
    name: z.string().nullish(),
    tool_calls: z.array(toolCall).nullish(),
    tool_call_id: z.string().nullish(),
    reasoning_content: z.string().nullish(),
  });

  const body = z.looseObject({
    model: z.string().min(1),
    messages: z.array(message).min(1),
    stream: z.boolean().nullish(),
    stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
    n: z.number().int().min(1).max(128).nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    top_p: z.number().min(0).max(1).nullish(),
    stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
    max_tokens: z.number().int().positive().nullish(),
    max_completion_tokens: z.number().int().positive().nullish(),
    presence_penalty: z.number().min(-2).max(2).nullish(),
    frequency_penalty: z.number().min(-2).max(2).nullish(),
    logit_bias: z.record(z.string(), z.number()).nullish(),
    logprobs: z.boolean().nullish(),
    top_logprobs: z.number().int().min(0).max(20).nullish(),
    user: z.string().nullish(),
    seed: z.number().int().nullish(),
    tools,
    tool_choice: toolChoice,
    response_format: z
      .union([
        z.looseObject({ type: z.literal('text') }),
        z.looseObject({ type: z.literal('json_object') }),
        z.looseObject({
          type: z.literal('json_schema'),
          json_schema: z.looseObject({ name: z.string(), schema: jsonObject().nullish() }),
        }),
      ])
      .nullish(),
    reasoning_effort: z.string().nullish(),
    modalities: z.array(z.string()).nullish(),
    // A voice by name, or a custom voice by id (`ChatCompletionAudioParam.ID`).
    audio: z.looseObject({ voice: z.union([z.string(), z.looseObject({ id: z.string() })]), format: z.string() }).nullish(),
    parallel_tool_calls: z.boolean().nullish(),
  });
  return { body };
});

export type ChatCompletionsBody = z.infer<ReturnType<typeof schemas>['body']>;

function contentParts(content: ChatCompletionsBody['messages'][number]['content']): Part[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  return content.flatMap((part): Part[] => {
    if (part.text !== undefined) return [{ kind: 'text', text: part.text }];
    if (part.image_url !== undefined) return [urlPart(typeof part.image_url === 'string' ? part.image_url : part.image_url.url)];
    if (part.input_audio) return [{ kind: 'media', mimeType: `audio/${part.input_audio.format}`, data: part.input_audio.data }];
    if (part.file?.file_data) return [urlPart(part.file.file_data, 'application/pdf')];
    return [];
  });
}

/**
 * Tool-call arguments as sent back by a client: JSON when they parse, the raw text when not, or
 * when they nest deeper than a body may (what follows serialises them recursively).
 */
export function parseArguments(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = parseClientJson(text);
  } catch {
    return text;
  }
  return measureBody(parsed).withinDepth ? parsed : text;
}

/** A system or developer message after the first turn keeps its place (`systemAt`), as the messages style's do. */
function toTurns(messages: ChatCompletionsBody['messages']): { system: string; systemAt: SystemAt[]; turns: Turn[] } {
  const system: string[] = [];
  const systemAt: SystemAt[] = [];
  const turns: Turn[] = [];
  messages.forEach((m, i) => {
    // The vendor refuses a user message without content; an assistant's may be null (tool calls).
    if (m.role === 'user' && (m.content === undefined || m.content === null)) {
      throw invalid(`Missing required parameter: 'messages[${i}].content'.`, `messages[${i}].content`, 'missing_required_parameter');
    }
    const parts = contentParts(m.content);
    if (m.role === 'system' || m.role === 'developer') {
      const text = parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
      system.push(text);
      if (turns.length > 0) systemAt.push({ turn: turns.length, text });
    } else if (m.role === 'tool' || m.role === 'function') {
      const content = parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
      turns.push({ role: 'tool', parts: [{ kind: 'tool_result', callId: m.tool_call_id ?? m.name ?? '', name: m.name ?? undefined, content }] });
    } else if (m.role === 'assistant') {
      const calls: Part[] = (m.tool_calls ?? []).map((c) =>
        c.type === 'custom'
          ? { kind: 'tool_call', id: c.id, name: c.custom.name, arguments: c.custom.input }
          : { kind: 'tool_call', id: c.id, name: c.function.name, arguments: parseArguments(c.function.arguments) },
      );
      const reasoning: Part[] = m.reasoning_content ? [{ kind: 'reasoning', text: m.reasoning_content }] : [];
      turns.push({ role: 'assistant', parts: [...reasoning, ...parts, ...calls] });
    } else {
      turns.push({ role: 'user', parts });
    }
  });
  return { system: system.join('\n'), systemAt, turns };
}

function responseFormatOf(format: ChatCompletionsBody['response_format']): ResponseFormat {
  if (!format || format.type === 'text') return { type: 'text' };
  if (format.type === 'json_object') return { type: 'json_object' };
  return { type: 'json_schema', name: format.json_schema.name, schema: format.json_schema.schema ?? {} };
}

/** The vendor's `pcm16` is the mock's raw `pcm`; the other formats keep their names. */
function audioOutputOf(data: ChatCompletionsBody): ChatRequest['audioOutput'] {
  if (!data.modalities?.includes('audio')) return undefined;
  if (!data.audio) {
    throw invalid("Missing required parameter: 'audio'. It is required when 'modalities' includes 'audio'.", 'audio', 'missing_required_parameter');
  }
  const voice = typeof data.audio.voice === 'string' ? data.audio.voice : data.audio.voice.id;
  return { voice, format: data.audio.format === 'pcm16' ? 'pcm' : data.audio.format };
}

export function decodeChatCompletions(input: StyleInput): ChatRequest {
  const data = parseBody(schemas().body, input.body);
  const { system, systemAt, turns } = toTurns(data.messages);
  const tools = toolDefs(data.tools);
  const stop = data.stop ?? [];
  const request: ChatRequest = {
    style: 'chat-completions',
    model: data.model,
    system,
    // Undefined, not left out by a spread: a literal with a spread is built a key at a time, on every request.
    systemAt: systemAt.length > 0 ? systemAt : undefined,
    turns,
    tools,
    toolChoice: toolChoiceOf(data.tool_choice, tools),
    maxOutputTokens: data.max_completion_tokens ?? data.max_tokens ?? undefined,
    reasoning:
      data.reasoning_effort && data.reasoning_effort !== 'none' ? { effort: data.reasoning_effort, visible: true } : undefined,
    responseFormat: responseFormatOf(data.response_format),
    choices: data.n ?? 1,
    stopSequences: typeof stop === 'string' ? [stop] : stop,
    stream: data.stream === true,
    temperature: data.temperature ?? undefined,
    seed: data.seed ?? undefined,
    imageOutput: imageOutputOf(data),
    audioOutput: audioOutputOf(data),
    logprobs: data.logprobs ? { top: data.top_logprobs ?? 0 } : undefined,
    headers: input.headers,
    body: data,
  };
  checkGenerationBudget(request, { format: 'response_format.json_schema.schema', tool: (i) => `tools[${i}].function.parameters` });
  return request;
}
