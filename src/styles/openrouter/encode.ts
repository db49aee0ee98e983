// Reply -> OpenRouter's chat completions: the OpenAI form with the provider that answered and
// `usage.cost` (at the catalog's prices) when the request asks `usage: { include: true }`;
// streamed, the usage chunk carries it.
import { isSpan, type StreamPart } from '../../conversation/plan.js';
import type { ChatRequest, Reply } from '../../conversation/types.js';
import { chatCompletionParts, encodeChatCompletion } from '../chat-completions/encode.js';

type Json = Record<string, unknown>;

function usageAsked(request: ChatRequest): boolean {
  const usage = request.body.usage as { include?: unknown } | null | undefined;
  return usage?.include === true;
}

/** The usage with what it cost, as OpenRouter reports it. */
function costed(usage: unknown, reply: Reply): Json {
  return { ...(usage as Json), cost: reply.costUsd ?? 0, is_byok: false };
}

/** The generation's id, under which OpenRouter lets its cost be looked up later. */
export function generationId(reply: Reply): string {
  return `gen-${reply.id}`;
}

export function encodeOpenrouter(reply: Reply, request: ChatRequest): unknown {
  const body = encodeChatCompletion(reply, request) as Json;
  return { ...body, provider: 'OpenRouter', ...(usageAsked(request) && { usage: costed(body.usage, reply) }) };
}

export function openrouterParts(reply: Reply, request: ChatRequest): StreamPart[] {
  if (!usageAsked(request)) return chatCompletionParts(reply, request);
  // `usage: { include: true }` asks for the usage chunk as `stream_options.include_usage` does.
  const events = chatCompletionParts(reply, { ...request, body: { ...request.body, stream_options: { include_usage: true } } });
  return events.map((event) => {
    // A content chunk carries no usage, and reading its data would build it whole.
    if (isSpan(event) || event.run) return event;
    const data = event.data as Json | string;
    const usage = typeof data === 'object' ? data.usage : null;
    return usage ? { ...event, data: { ...(data as Json), usage: costed(usage, reply) } } : event;
  });
}
