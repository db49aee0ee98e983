// OpenAI Realtime (GA) server events, as pure functions: the items of a conversation and the
// events of one response (text or audio with its transcript, function calls, usage). The socket
// and its pacing stay with the door.

export interface ChatToolCall {
  id: string;
  function: { name: string; arguments: string };
}

/** What a turn answered, read from the chat completion the turn was answered with. */
export interface TurnReply {
  text: string;
  toolCalls: ChatToolCall[];
  usage: { prompt_tokens: number; completion_tokens: number };
}

export interface ResponseIds {
  responseId: string;
  /** One item id per output item: the message first (when there is text), then each call. */
  itemIds: string[];
}

/** An event of a response; `delta` marks the ones paced by --latency. */
export interface RealtimeEvent {
  type: string;
  delta?: string;
  [field: string]: unknown;
}

type Modality = 'text' | 'audio';

function messageItem(id: string, status: string, modality: Modality, text: string): Record<string, unknown> {
  const part = modality === 'audio' ? { type: 'output_audio', transcript: text } : { type: 'output_text', text };
  return { id, object: 'realtime.item', type: 'message', status, role: 'assistant', content: status === 'completed' ? [part] : [] };
}

function callItem(id: string, call: ChatToolCall, status: string): Record<string, unknown> {
  return { id, object: 'realtime.item', type: 'function_call', status, call_id: call.id, name: call.function.name, arguments: status === 'completed' ? call.function.arguments : '' };
}

export function responseObject(responseId: string, status: string, output: unknown[], modality: Modality, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { object: 'realtime.response', id: responseId, status, status_details: null, output, conversation_id: 'conv_mock', output_modalities: [modality], max_output_tokens: 'inf', audio: { output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy' } }, usage: null, metadata: null, ...extra };
}

/** The usage `response.done` carries, in the GA shape. */
export function realtimeUsage(usage: TurnReply['usage'], modality: Modality, audioTokens: number): Record<string, unknown> {
  const output = modality === 'audio' ? audioTokens : 0;
  const outputText = usage.completion_tokens;
  return {
    total_tokens: usage.prompt_tokens + outputText + output,
    input_tokens: usage.prompt_tokens,
    output_tokens: outputText + output,
    input_token_details: { text_tokens: usage.prompt_tokens, audio_tokens: 0, image_tokens: 0, cached_tokens: 0, cached_tokens_details: { text_tokens: 0, audio_tokens: 0, image_tokens: 0 } },
    output_token_details: { text_tokens: outputText, audio_tokens: output },
  };
}

/**
 * The events of one response, in the order the vendor sends them: its message (text deltas, or
 * audio deltas beside their transcript's), then each function call, then `response.done`.
 * `pieces` is the text cut as a stream cuts it; `audio` the base64 chunks of its speech.
 */
export function responseEvents(ids: ResponseIds, reply: TurnReply, modality: Modality, pieces: readonly string[], audio: readonly string[], audioTokens: number): RealtimeEvent[] {
  const { responseId } = ids;
  const events: RealtimeEvent[] = [{ type: 'response.created', response: responseObject(responseId, 'in_progress', [], modality) }];
  const done: unknown[] = [];
  let index = 0;
  if (reply.text || reply.toolCalls.length === 0) {
    const itemId = ids.itemIds[0]!;
    const at = { response_id: responseId, item_id: itemId, output_index: 0, content_index: 0 };
    const part = modality === 'audio' ? { type: 'audio', transcript: '' } : { type: 'text', text: '' };
    events.push({ type: 'response.output_item.added', response_id: responseId, output_index: 0, item: messageItem(itemId, 'in_progress', modality, '') });
    events.push({ type: 'conversation.item.added', previous_item_id: null, item: messageItem(itemId, 'in_progress', modality, '') });
    events.push({ type: 'response.content_part.added', ...at, part });
    if (modality === 'audio') {
      // Audio and its transcript go side by side, as the vendor streams them.
      const steps = Math.max(pieces.length, audio.length);
      for (let step = 0; step < steps; step++) {
        if (step < audio.length) events.push({ type: 'response.output_audio.delta', ...at, delta: audio[step]! });
        if (step < pieces.length) events.push({ type: 'response.output_audio_transcript.delta', ...at, delta: pieces[step]! });
      }
      events.push({ type: 'response.output_audio.done', ...at });
      events.push({ type: 'response.output_audio_transcript.done', ...at, transcript: reply.text });
      events.push({ type: 'response.content_part.done', ...at, part: { type: 'audio', transcript: reply.text } });
    } else {
      for (const piece of pieces) events.push({ type: 'response.output_text.delta', ...at, delta: piece });
      events.push({ type: 'response.output_text.done', ...at, text: reply.text });
      events.push({ type: 'response.content_part.done', ...at, part: { type: 'text', text: reply.text } });
    }
    const item = messageItem(itemId, 'completed', modality, reply.text);
    events.push({ type: 'response.output_item.done', response_id: responseId, output_index: 0, item });
    events.push({ type: 'conversation.item.done', previous_item_id: null, item });
    done.push(item);
    index = 1;
  }
  reply.toolCalls.forEach((call, n) => {
    const itemId = ids.itemIds[index + n] ?? ids.itemIds.at(-1)!;
    const outputIndex = index + n;
    const at = { response_id: responseId, item_id: itemId, output_index: outputIndex, call_id: call.id };
    events.push({ type: 'response.output_item.added', response_id: responseId, output_index: outputIndex, item: callItem(itemId, call, 'in_progress') });
    events.push({ type: 'conversation.item.added', previous_item_id: null, item: callItem(itemId, call, 'in_progress') });
    events.push({ type: 'response.function_call_arguments.delta', ...at, delta: call.function.arguments });
    events.push({ type: 'response.function_call_arguments.done', ...at, name: call.function.name, arguments: call.function.arguments });
    const item = callItem(itemId, call, 'completed');
    events.push({ type: 'response.output_item.done', response_id: responseId, output_index: outputIndex, item });
    events.push({ type: 'conversation.item.done', previous_item_id: null, item });
    done.push(item);
  });
  events.push({ type: 'response.done', response: responseObject(responseId, 'completed', done, modality, { usage: realtimeUsage(reply.usage, modality, audioTokens) }) });
  return events;
}

/** The `response.done` of a response cut short: by the client, or by new speech (`turn_detected`). */
export function cancelledDone(responseId: string, modality: Modality, reason: 'client_cancelled' | 'turn_detected'): RealtimeEvent {
  return { type: 'response.done', response: responseObject(responseId, 'cancelled', [], modality, { status_details: { type: 'cancelled', reason } }) };
}

/** An `error` event: the socket stays open. */
export function errorEvent(type: string, code: string | null, message: string, param: string | null = null, eventId: string | null = null): RealtimeEvent {
  return { type: 'error', error: { type, code, message, param, event_id: eventId } };
}
