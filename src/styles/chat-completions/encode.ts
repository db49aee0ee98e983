// Reply -> chat-completions wire: the whole `chat.completion` object and its chunk stream
// (WIRE.md section 1). Both are built from the same pieces, so joined chunks equal the whole.
import type { StreamEvent } from '../../conversation/plan.js';
import { hashHex } from '../../conversation/random.js';
import { argumentsText } from '../../conversation/call-arguments.js';
import { chunkText } from '../../conversation/token-chunks.js';
import type { ChatRequest, Reply, ReplyChoice, ToolCall, Usage } from '../../conversation/types.js';
import { pushPieces } from '../piece-events.js';

export function completionId(reply: Reply): string {
  return `chatcmpl-${reply.id}`;
}

export function toolCallId(call: ToolCall): string {
  return `call_${call.id}`;
}

// A client sends the same model request after request: its digest is kept, one model at a time
// (bounded whatever the client sends), instead of hashing it again for every answer.
let lastFingerprint: { model: string; fingerprint: string } | undefined;

function fingerprint(model: string): string {
  if (lastFingerprint?.model !== model) lastFingerprint = { model, fingerprint: `fp_${hashHex(model, 10)}` };
  return lastFingerprint.fingerprint;
}

export function usageOf(usage: Usage): Record<string, unknown> {
  const completion = usage.outputTokens + usage.reasoningTokens;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: completion,
    total_tokens: usage.inputTokens + completion,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens, text_tokens: usage.inputTokens, audio_tokens: 0, image_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      text_tokens: usage.outputTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function imagesOf(choice: ReplyChoice) {
  return choice.images.map((image) => ({
    type: 'image_url',
    image_url: { url: `data:${image.mimeType};base64,${image.data}` },
  }));
}

function messageOf(choice: ReplyChoice): Record<string, unknown> {
  const refused = choice.finishReason === 'refusal';
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: refused || (choice.toolCalls.length > 0 && choice.text === '') ? null : choice.text,
    refusal: refused ? choice.text : null,
    annotations: [],
  };
  if (choice.reasoning !== undefined) message.reasoning_content = choice.reasoning;
  if (choice.images.length > 0) message.images = imagesOf(choice);
  if (choice.toolCalls.length > 0) {
    message.tool_calls = choice.toolCalls.map((call) => ({
      id: toolCallId(call),
      type: 'function',
      function: { name: call.name, arguments: argumentsText(call) },
    }));
  }
  return message;
}

/** A refusal ends as a normal stop; the refusal itself is the message's. */
function finishOf(choice: ReplyChoice): string {
  return choice.finishReason === 'refusal' ? 'stop' : choice.finishReason;
}

export function encodeChatCompletion(reply: Reply, request: ChatRequest): unknown {
  return {
    id: completionId(reply),
    object: 'chat.completion',
    created: Math.floor(reply.createdMs / 1000),
    model: request.model,
    choices: reply.choices.map((choice, index) => ({
      index,
      message: messageOf(choice),
      logprobs: null,
      finish_reason: finishOf(choice),
    })),
    usage: usageOf(reply.usage),
    service_tier: 'default',
    system_fingerprint: fingerprint(request.model),
  };
}

function includeUsage(request: ChatRequest): boolean {
  const options = request.body.stream_options as { include_usage?: boolean | null } | null | undefined;
  return options?.include_usage === true;
}

export function chatCompletionEvents(reply: Reply, request: ChatRequest): StreamEvent[] {
  const withUsage = includeUsage(request);
  const base = {
    id: completionId(reply),
    object: 'chat.completion.chunk',
    created: Math.floor(reply.createdMs / 1000),
    model: request.model,
    service_tier: 'default',
    system_fingerprint: fingerprint(request.model),
  };
  const chunk = (index: number, delta: Record<string, unknown>, finish: string | null = null, paced = false): StreamEvent => ({
    data: {
      ...base,
      choices: [{ index, delta, logprobs: null, finish_reason: finish }],
      ...(withUsage ? { usage: null } : {}),
    },
    paced,
  });
  const events: StreamEvent[] = [];
  reply.choices.forEach((choice, index) => {
    const refused = choice.finishReason === 'refusal';
    const content = refused || (choice.toolCalls.length > 0 && choice.text === '') ? null : '';
    events.push(chunk(index, { role: 'assistant', content, refusal: refused ? '' : null }));
    pushPieces(events, choice.reasoningChunks, (piece) => chunk(index, { reasoning_content: piece }, null, true));
    pushPieces(events, choice.textChunks, (piece) => chunk(index, refused ? { refusal: piece } : { content: piece }, null, true));
    if (choice.images.length > 0) events.push(chunk(index, { images: imagesOf(choice) }, null, true));
    choice.toolCalls.forEach((call, callIndex) => {
      events.push(
        chunk(index, {
          tool_calls: [{ index: callIndex, id: toolCallId(call), type: 'function', function: { name: call.name, arguments: '' } }],
        }),
      );
      for (const piece of chunkText(argumentsText(call), 'token')) {
        events.push(chunk(index, { tool_calls: [{ index: callIndex, function: { arguments: piece } }] }, null, true));
      }
    });
    events.push(chunk(index, {}, finishOf(choice)));
  });
  if (withUsage) events.push({ data: { ...base, choices: [], usage: usageOf(reply.usage) } });
  events.push({ data: '[DONE]' });
  return events;
}
