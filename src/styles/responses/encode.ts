// Reply -> the `response` object of WIRE.md section 2: output items (reasoning, message,
// function calls), the request's settings echoed back, and usage. The stream (events.ts) is cut
// from this same object, so joined it says exactly what this says.
import type { ChatRequest, FinishReason, Part, Reply, ReplyChoice, Turn, Usage } from '../../conversation/types.js';
import { toolCallId } from '../chat-completions/encode.js';
import { functionTools } from './tools.js';
import { servedTier } from '../service-tier.js';
import { tokenLogprobs } from '../../conversation/logprobs.js';
import { callItem, type CallItem } from './call-items.js';
import { messageItemId, reasoningItemId, responseId } from './ids.js';
import type { ResponsesBody } from './schema.js';
import { encodeWith, textReplyValues, type AnswerShape, type Holes } from '../answer-template.js';

export interface OutputText {
  type: 'output_text';
  annotations: unknown[];
  logprobs: Array<{ token: string; logprob: number; bytes: number[]; top_logprobs: unknown[] }>;
  text: string;
}

/** What the model says instead of an answer when it declines. */
export interface OutputRefusal {
  type: 'refusal';
  refusal: string;
}

export type OutputItem =
  | { id: string; type: 'reasoning'; summary: Array<{ type: 'summary_text'; text: string }>; encrypted_content?: string }
  | { id: string; type: 'message'; status: 'completed' | 'incomplete'; content: Array<OutputText | OutputRefusal>; role: 'assistant' }
  | CallItem;

export type ResponseStatus = 'completed' | 'incomplete' | 'in_progress' | 'failed' | 'queued' | 'cancelled';

export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  completed_at: number | null;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: string } | null;
  output: OutputItem[];
  usage: Record<string, unknown> | null;
  [echoed: string]: unknown;
}

const INCOMPLETE: Partial<Record<FinishReason, string>> = { length: 'max_output_tokens', content_filter: 'content_filter' };

/** Like the vendor, output tokens include the reasoning tokens, which are also given apart. */
function outputTokens(usage: Usage): number {
  return usage.outputTokens + usage.reasoningTokens;
}

/** The usage figures that follow the prompt: a whole answer's template has holes for them, a fixture's reply saying the rest. */
interface PromptCounts {
  input_tokens: number;
  total_tokens: number;
}

function promptCounts(usage: Usage): PromptCounts {
  return { input_tokens: usage.inputTokens, total_tokens: usage.inputTokens + outputTokens(usage) };
}

export function usageOf(usage: Usage, prompt = promptCounts(usage)): Record<string, unknown> {
  return {
    input_tokens: prompt.input_tokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens, cache_write_tokens: 0 },
    output_tokens: outputTokens(usage),
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: prompt.total_tokens,
  };
}

function bodyOf(request: ChatRequest): ResponsesBody {
  return request.body as ResponsesBody;
}

/** An opaque stand-in for the vendor's encrypted reasoning, returned only when included. */
function encryptedReasoning(text: string): string {
  return Buffer.from(`mock-reasoning:${text}`).toString('base64');
}

function reasoningItem(reply: Reply, choice: ReplyChoice, request: ChatRequest): OutputItem {
  const shown = request.reasoning?.visible && choice.reasoning ? [{ type: 'summary_text' as const, text: choice.reasoning }] : [];
  const encrypted = bodyOf(request).include?.includes('reasoning.encrypted_content');
  return {
    id: reasoningItemId(reply),
    type: 'reasoning',
    summary: shown,
    ...(encrypted ? { encrypted_content: encryptedReasoning(choice.reasoning ?? '') } : {}),
  };
}

/** The text's log probabilities (`ResponseOutputText.Logprob`) when `include` asks for them. */
function logprobsOf(request: ChatRequest, text: string): OutputText['logprobs'] {
  if (!request.logprobs) return [];
  return tokenLogprobs(text, `${request.model}:0`, request.logprobs.top).map(({ top, ...entry }) => ({ ...entry, top_logprobs: top }));
}

export function outputItems(reply: Reply, request: ChatRequest, messageId = messageItemId(reply)): OutputItem[] {
  const choice = reply.choices[0]!;
  const items: OutputItem[] = [];
  if (choice.reasoning !== undefined) items.push(reasoningItem(reply, choice, request));
  if (choice.text !== '' || choice.toolCalls.length === 0) {
    items.push({
      id: messageId,
      type: 'message',
      status: choice.finishReason === 'length' ? 'incomplete' : 'completed',
      content: [
        choice.finishReason === 'refusal'
          ? { type: 'refusal', refusal: choice.text }
          : { type: 'output_text', annotations: [], logprobs: logprobsOf(request, choice.text), text: choice.text },
      ],
      role: 'assistant',
    });
  }
  choice.toolCalls.forEach((call, index) => items.push(callItem(reply, request, call, index)));
  return items;
}

function echoedTools(body: ResponsesBody): unknown[] {
  return (body.tools ?? []).map((tool) => {
    if (tool.type !== 'function') return tool;
    const fn = functionTools([tool])[0]!;
    return { ...fn, description: fn.description ?? null, parameters: fn.parameters ?? null, strict: fn.strict ?? true };
  });
}

/** The request's settings as the response echoes them, defaults filled: holes of an answer's template, as every request sets its own. */
function echoed(body: ResponsesBody) {
  return {
    background: body.background ?? false,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: body.max_tool_calls ?? null,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    prompt_cache_key: body.prompt_cache_key ?? null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: body.reasoning?.summary ?? body.reasoning?.generate_summary ?? null },
    safety_identifier: body.safety_identifier ?? null,
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: { format: body.text?.format ?? { type: 'text' }, verbosity: body.text?.verbosity ?? 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: echoedTools(body),
    top_logprobs: body.top_logprobs ?? 0,
    top_p: body.top_p ?? 1,
    truncation: body.truncation ?? 'disabled',
    user: body.user ?? null,
    metadata: body.metadata ?? {},
  };
}

/** What one answer says that the next answer of the same fixture's reply does not: ids, time, usage and the echoed settings. */
interface ResponseHoles extends Holes, PromptCounts, Echoed {
  id: string;
  created: number;
  message_id: string;
}

type Echoed = ReturnType<typeof echoed>;

/** The response object, fields in the vendor's order, made with its holes (answer-template.ts). */
export const responseAnswer: AnswerShape<ResponseHoles> = {
  holes: (reply, request) => ({
    id: responseId(reply),
    created: Math.floor(reply.createdMs / 1000),
    message_id: messageItemId(reply),
    ...promptCounts(reply.usage),
    ...echoed(bodyOf(request)),
  }),
  whole: (reply, request, holes): ResponseObject => {
    const incomplete = INCOMPLETE[reply.choices[0]!.finishReason];
    return {
      id: holes.id,
      object: 'response',
      created_at: holes.created,
      status: incomplete ? 'incomplete' : 'completed',
      background: holes.background,
      completed_at: holes.created,
      error: null,
      incomplete_details: incomplete ? { reason: incomplete } : null,
      instructions: holes.instructions,
      max_output_tokens: holes.max_output_tokens,
      max_tool_calls: holes.max_tool_calls,
      model: request.model,
      output: outputItems(reply, request, holes.message_id),
      parallel_tool_calls: holes.parallel_tool_calls,
      previous_response_id: holes.previous_response_id,
      prompt_cache_key: holes.prompt_cache_key,
      reasoning: holes.reasoning,
      safety_identifier: holes.safety_identifier,
      service_tier: servedTier(request.body),
      store: holes.store,
      temperature: holes.temperature,
      text: holes.text,
      tool_choice: holes.tool_choice,
      tools: holes.tools,
      top_logprobs: holes.top_logprobs,
      top_p: holes.top_p,
      truncation: holes.truncation,
      usage: usageOf(reply.usage, holes),
      user: holes.user,
      metadata: holes.metadata,
    };
  },
  // A reasoning item's id is the reply's: such an answer is encoded whole.
  same: (reply, request) => {
    if (request.logprobs || reply.choices[0]!.reasoning !== undefined) return undefined;
    const { outputTokens, reasoningTokens, cachedTokens } = reply.usage;
    return textReplyValues(reply, request.model, servedTier(request.body), outputTokens, reasoningTokens, cachedTokens);
  },
};

export const encodeResponse = encodeWith(responseAnswer) as (reply: Reply, request: ChatRequest) => ResponseObject;

/** The assistant turn a response adds to its conversation, for `previous_response_id` and item references. */
export function outputTurn(reply: Reply): Turn {
  const choice = reply.choices[0]!;
  const parts: Part[] = [];
  if (choice.reasoning) parts.push({ kind: 'reasoning', text: choice.reasoning });
  if (choice.text !== '' || choice.toolCalls.length === 0) parts.push({ kind: 'text', text: choice.text });
  for (const call of choice.toolCalls) parts.push({ kind: 'tool_call', id: toolCallId(call), name: call.name, arguments: call.input ?? call.arguments });
  return { role: 'assistant', parts };
}
