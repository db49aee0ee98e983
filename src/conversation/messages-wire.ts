// Which requests are answered in the messages wire: the messages style's own, and the clouds'
// bodies that carry `anthropic_version` (Bedrock's InvokeModel, Vertex's rawPredict). Converse's
// and generate-content's bodies have no `anthropic_version`.
import type { ChatRequest } from './types.js';

/** Whether a request was decoded from a cloud's versioned messages body. */
export function versioned(request: ChatRequest): boolean {
  return 'anthropic_version' in request.body;
}

export function inMessagesWire(request: ChatRequest): boolean {
  return request.style === 'messages' || versioned(request);
}
