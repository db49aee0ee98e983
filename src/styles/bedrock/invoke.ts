// InvokeModel and InvokeModelWithResponseStream for Anthropic models: the messages body with
// `anthropic_version` (any) and the model in the path; the answer is the message, its stream the
// messages events, each whole event's JSON as the base64 `bytes` of a `chunk` message.
import { invalid } from '../../conversation/errors.js';
import type { StreamEvent } from '../../conversation/plan.js';
import type { ChatRequest, Reply } from '../../conversation/types.js';
import { decodeMessages } from '../messages/decode.js';
import { messageEvents } from '../messages/events.js';
import type { StyleInput } from '../style.js';

/** Whether a request was made by InvokeModel: its body must name an `anthropic_version`, which Converse's has not. */
export function invoked(request: ChatRequest): boolean {
  return 'anthropic_version' in request.body;
}

export function decodeInvoke(input: StyleInput, model: string, stream: boolean): ChatRequest {
  const given = input.body !== null && typeof input.body === 'object' && !Array.isArray(input.body) ? (input.body as Record<string, unknown>) : undefined;
  if (given && typeof given.anthropic_version !== 'string') throw invalid('Malformed input request: #: required key [anthropic_version] not found, please reformat your input and try again.', 'anthropic_version');
  const body = given ? { ...given, model } : input.body;
  return { ...decodeMessages({ ...input, body }), style: 'bedrock', stream };
}

export function invokeEvents(reply: Reply, request: ChatRequest): StreamEvent[] {
  return messageEvents(reply, request).map((event) => {
    const json = event.json ?? JSON.stringify(event.data);
    return { event: 'chunk', data: { bytes: Buffer.from(json).toString('base64') }, paced: event.paced };
  });
}
