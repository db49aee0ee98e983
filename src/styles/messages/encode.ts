// Reply -> the messages-style `message` object (WIRE.md section 3). The content blocks are built
// here once; the stream (events.ts) sends these same blocks, so joined it says what this says.
import { seededRandom } from '../../conversation/random.js';
import type { ChatRequest, Reply, ReplyChoice, ToolCall } from '../../conversation/types.js';
import { encodeWith, textReplyValues, type AnswerShape, type Holes } from '../answer-template.js';

export type ContentBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown>; caller: { type: 'direct' } };

export function messageId(reply: Reply): string {
  return `msg_${reply.id}`;
}

export function toolUseId(call: ToolCall): string {
  return `toolu_${call.id}`;
}

const SIGNATURE_BYTES = 96;

/** Opaque like the vendor's: base64 bytes, the same for the same reply id. */
export function signatureOf(reply: Reply): string {
  const random = seededRandom('signature', reply.id);
  return Buffer.from(Array.from({ length: SIGNATURE_BYTES }, () => random.int(0, 255))).toString('base64');
}

/** The one choice this style has: messages never ask for more than one. */
export function choiceOf(reply: Reply): ReplyChoice {
  return reply.choices[0]!;
}

/**
 * Thinking first, then text, then tool calls. Empty text gives no text block: the vendor answers
 * an empty turn with `content: []` and refuses an empty text block when it is sent back.
 */
export function contentBlocks(reply: Reply, request: ChatRequest): ContentBlock[] {
  const choice = choiceOf(reply);
  const blocks: ContentBlock[] = [];
  // `display: "omitted"`: the block is there, signed, with its text left out.
  if (choice.reasoning !== undefined && request.reasoning) {
    blocks.push({ type: 'thinking', thinking: request.reasoning.visible ? choice.reasoning : '', signature: signatureOf(reply) });
  }
  if (choice.text !== '') blocks.push({ type: 'text', text: choice.text });
  // `caller` says who made the call: the model itself (`direct`), never a server tool here.
  for (const call of choice.toolCalls) {
    blocks.push({ type: 'tool_use', id: toolUseId(call), name: call.name, input: call.arguments, caller: { type: 'direct' } });
  }
  return blocks;
}

const STOP_REASONS = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use', content_filter: 'refusal', refusal: 'refusal' } as const;

/** A refusal's details (`RefusalStopDetails`), whether its model declined or its filter stopped it: a mock's refusal names no policy category. */
const REFUSAL = { type: 'refusal', category: null, explanation: null } as const;

export function stopOf(reply: Reply): { stop_reason: string; stop_sequence: string | null; stop_details: typeof REFUSAL | null } {
  const choice = choiceOf(reply);
  const bySequence = choice.finishReason === 'stop' && choice.stopSequence !== undefined;
  const stop_reason = bySequence ? 'stop_sequence' : STOP_REASONS[choice.finishReason];
  return {
    stop_reason,
    stop_sequence: bySequence ? choice.stopSequence! : null,
    stop_details: stop_reason === 'refusal' ? REFUSAL : null,
  };
}

/** Output tokens include the thinking, as the vendor bills them. */
export function outputTokens(reply: Reply): number {
  return reply.usage.outputTokens + reply.usage.reasoningTokens;
}

/**
 * In the vendor's order. The mock writes no cache, so both cache figures (and their split by
 * lifetime) are 0; `not_available` is the region the vendor names when none was asked for.
 */
export function usageOf(reply: Reply, output = outputTokens(reply), input = reply.usage.inputTokens) {
  return {
    input_tokens: input,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { thinking_tokens: reply.usage.reasoningTokens },
    service_tier: 'standard',
    inference_geo: 'not_available',
  };
}

function envelope(id: string, request: ChatRequest, content: ContentBlock[], usage: ReturnType<typeof usageOf>) {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: request.model,
    content,
    stop_reason: null as string | null,
    stop_sequence: null as string | null,
    stop_details: null,
    usage,
  };
}

/** The message as `message_start` announces it: no content, no stop reason yet, one output token. */
export function openingMessage(reply: Reply, request: ChatRequest) {
  return envelope(messageId(reply), request, [], usageOf(reply, 1));
}

/** What one answer of a reply says that the next answer of the same fixture's reply does not. */
interface MessageHoles extends Holes {
  id: string;
  input_tokens: number;
}

/** The `message` object, made with its holes (answer-template.ts). */
export const messageAnswer: AnswerShape<MessageHoles> = {
  holes: (reply) => ({ id: messageId(reply), input_tokens: reply.usage.inputTokens }),
  whole: (reply, request, holes) => ({
    ...envelope(holes.id, request, contentBlocks(reply, request), usageOf(reply, outputTokens(reply), holes.input_tokens)),
    ...stopOf(reply),
  }),
  // A thinking block's signature is the reply id's: such an answer is encoded whole.
  same: (reply, request) =>
    choiceOf(reply).reasoning !== undefined && request.reasoning ? undefined : textReplyValues(reply, request.model, reply.usage.outputTokens, reply.usage.reasoningTokens),
};

export const encodeMessage = encodeWith(messageAnswer);
