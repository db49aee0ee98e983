// InvokeModel and InvokeModelWithResponseStream for Anthropic models: the messages body with
// `anthropic_version` (any) and the model in the path; the answer is the message, its stream the
// messages events, each whole event's JSON as the base64 `bytes` of a `chunk` message.
import type { StreamEvent } from '../../conversation/plan.js';
import type { ChatRequest, Reply } from '../../conversation/types.js';
import { messageEvents } from '../messages/events.js';
import { decodeVersioned } from '../messages/versioned.js';
import type { StyleInput } from '../style.js';

export function decodeInvoke(input: StyleInput, model: string, stream: boolean): ChatRequest {
  const missing = 'Malformed input request: #: required key [anthropic_version] not found, please reformat your input and try again.';
  return { ...decodeVersioned(input, model, stream, missing), style: 'bedrock' };
}

export function invokeEvents(reply: Reply, request: ChatRequest): StreamEvent[] {
  return messageEvents(reply, request).map((event) => {
    const json = event.json ?? JSON.stringify(event.data);
    return { event: 'chunk', data: { bytes: Buffer.from(json).toString('base64') }, paced: event.paced };
  });
}
