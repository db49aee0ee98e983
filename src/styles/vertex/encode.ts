// Reply -> Vertex's answers: a Gemini model's as generate-content's with the `createTime` Vertex
// adds to every response (whole and each chunk); an Anthropic model's as the messages wire, as is.
import type { StreamPart } from '../../conversation/plan.js';
import type { ChatRequest, Reply } from '../../conversation/types.js';
import { encodeGenerateContent } from '../generate-content/encode.js';
import { generateContentEvents } from '../generate-content/events.js';
import { encodeMessage } from '../messages/encode.js';
import { messageParts } from '../messages/events.js';
import { versioned } from '../../conversation/messages-wire.js';

function stamped(body: unknown, reply: Reply): unknown {
  return { ...(body as Record<string, unknown>), createTime: new Date(reply.createdMs).toISOString() };
}

export function encodeVertex(reply: Reply, request: ChatRequest): unknown {
  return versioned(request) ? encodeMessage(reply, request) : stamped(encodeGenerateContent(reply, request), reply);
}

export function vertexParts(reply: Reply, request: ChatRequest): StreamPart[] {
  if (versioned(request)) return messageParts(reply, request);
  return generateContentEvents(reply, request).map((event) => ({ ...event, data: stamped(event.data, reply) }));
}
