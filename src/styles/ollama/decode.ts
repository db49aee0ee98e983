// Ollama request bodies -> neutral ChatRequest: `/api/chat` (messages) and `/api/generate` (a
// prompt). Streams are the default; `stream: false` asks for one object. Tool-call arguments are
// objects on this wire, not JSON text.
import * as z from 'zod';
import { jsonObject } from '../json-object.js';
import { checkGenerationBudget } from '../../conversation/generation-budget.js';
import type { ChatRequest, Part, ResponseFormat, Turn } from '../../conversation/types.js';
import type { StyleInput } from '../style.js';
import { parseBody } from '../validate.js';
import { madeAtFirstUse } from '../../conversation/first-use.js';

/** The bodies' schemas, made at the first Ollama request: a start that serves none builds none. */
const schemas = madeAtFirstUse(() => {
  const toolCall = z.looseObject({
    id: z.string().optional(),
    function: z.looseObject({ name: z.string(), arguments: jsonObject().default({}) }),
  });

  const message = z.looseObject({
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: z.string().default(''),
    thinking: z.string().optional(),
    images: z.array(z.string()).nullish(),
    tool_calls: z.array(toolCall).nullish(),
    tool_name: z.string().optional(),
  });

  const options = z.looseObject({
    temperature: z.number().optional(),
    seed: z.number().int().optional(),
    num_predict: z.number().int().optional(),
    stop: z.array(z.string()).optional(),
  });

  const common = {
    model: z.string().min(1),
    format: z.union([z.literal('json'), z.literal(''), jsonObject()]).optional(),
    options: options.optional(),
    stream: z.boolean().optional(),
    think: z.union([z.boolean(), z.string()]).optional(),
    keep_alive: z.union([z.string(), z.number()]).optional(),
  };

  const chatBody = z.looseObject({
    ...common,
    messages: z.array(message).default([]),
    tools: z
      .array(
        z.looseObject({
          type: z.literal('function').optional(),
          function: z.looseObject({ name: z.string().min(1), description: z.string().optional(), parameters: jsonObject().optional() }),
        }),
      )
      .optional(),
  });

  const generateBody = z.looseObject({
    ...common,
    prompt: z.string().default(''),
    system: z.string().optional(),
    suffix: z.string().optional(),
    images: z.array(z.string()).optional(),
    raw: z.boolean().optional(),
  });
  return { chatBody, generateBody };
});

/** Whether a body asks `/api/generate` (a prompt) rather than `/api/chat`; the encoder answers each in its form. */
export function isGenerate(body: Record<string, unknown>): boolean {
  return !('messages' in body);
}

function imageParts(images: readonly string[] | null | undefined): Part[] {
  return (images ?? []).map((data) => ({ kind: 'media', mimeType: 'image/png', data }));
}

type ChatBody = z.infer<ReturnType<typeof schemas>['chatBody']>;

function toTurns(messages: ChatBody['messages']): { system: string; turns: Turn[] } {
  const system: string[] = [];
  const turns: Turn[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'system') system.push(m.content);
    else if (m.role === 'tool') turns.push({ role: 'tool', parts: [{ kind: 'tool_result', callId: m.tool_name ?? `call_${i}`, name: m.tool_name, content: m.content }] });
    else if (m.role === 'assistant') {
      const calls: Part[] = (m.tool_calls ?? []).map((c, n) => ({ kind: 'tool_call', id: c.id ?? `call_${i}_${n}`, name: c.function.name, arguments: c.function.arguments }));
      const thinking: Part[] = m.thinking ? [{ kind: 'reasoning', text: m.thinking }] : [];
      turns.push({ role: 'assistant', parts: [...thinking, ...(m.content ? [{ kind: 'text' as const, text: m.content }] : []), ...calls] });
    } else turns.push({ role: 'user', parts: [{ kind: 'text', text: m.content }, ...imageParts(m.images)] });
  });
  return { system: system.join('\n'), turns };
}

function formatOf(format: ChatBody['format']): ResponseFormat {
  if (format === undefined || format === '') return { type: 'text' };
  return format === 'json' ? { type: 'json_object' } : { type: 'json_schema', schema: format };
}

type Common = z.infer<ReturnType<typeof schemas>['generateBody']> | ChatBody;

/** What the two forms say differently: the conversation and the tools. */
function conversationOf(input: StyleInput): { data: Common; system: string; turns: Turn[]; tools: ChatRequest['tools'] } {
  const raw = input.body;
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && isGenerate(raw as Record<string, unknown>)) {
    const data = parseBody(schemas().generateBody, raw);
    return { data, system: data.system ?? '', turns: [{ role: 'user', parts: [{ kind: 'text', text: data.prompt }, ...imageParts(data.images)] }], tools: [] };
  }
  const data = parseBody(schemas().chatBody, raw);
  const tools = (data.tools ?? []).map((t) => ({
    name: t.function.name,
    description: t.function.description,
    parameters: t.function.parameters ?? { type: 'object', properties: {} },
  }));
  return { data, ...toTurns(data.messages), tools };
}

export function decodeOllama(input: StyleInput): ChatRequest {
  const { data, system, turns, tools } = conversationOf(input);
  const request: ChatRequest = {
    style: 'ollama',
    model: data.model,
    system,
    turns,
    tools,
    toolChoice: { mode: 'auto' },
    maxOutputTokens: data.options?.num_predict !== undefined && data.options.num_predict > 0 ? data.options.num_predict : undefined,
    reasoning: data.think ? { visible: true, ...(typeof data.think === 'string' && { effort: data.think }) } : undefined,
    responseFormat: formatOf(data.format),
    choices: 1,
    stopSequences: data.options?.stop ?? [],
    stream: data.stream !== false,
    temperature: data.options?.temperature,
    seed: data.options?.seed,
    headers: input.headers,
    body: data,
  };
  checkGenerationBudget(request, { format: 'format', tool: (i) => `tools[${i}].function.parameters` });
  return request;
}
