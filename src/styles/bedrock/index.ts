// The bedrock style: `POST /model/{modelId}/{operation}`, Converse and ConverseStream in their own
// wire, InvokeModel and its stream in the messages wire, all journaled as `bedrock`.
import { failure } from '../../conversation/errors.js';
import type { StreamPart } from '../../conversation/plan.js';
import type { ChatRequest, Reply } from '../../conversation/types.js';
import type { ChatStyle } from '../style.js';
import { decodeConverse } from './converse-decode.js';
import { converseParts, encodeConverse } from './converse-encode.js';
import { eventsOf } from '../piece-events.js';
import { bedrockEnvelope, bedrockStreamError } from './envelope.js';
import { decodeInvoke, invokeEvents } from './invoke.js';
import { versioned } from '../../conversation/messages-wire.js';
import { catalogModelId } from './model-id.js';
import { readBedrock } from './read.js';
import { encodeMessage } from '../messages/encode.js';

/** Each operation: whether it streams, and whether it takes the messages body. */
const OPERATIONS: Readonly<Record<string, { stream: boolean; invoke: boolean }>> = {
  converse: { stream: false, invoke: false },
  'converse-stream': { stream: true, invoke: false },
  invoke: { stream: false, invoke: true },
  'invoke-with-response-stream': { stream: true, invoke: true },
};

/** The path's parameters checked: an operation Bedrock does not have is its unknown operation. */
export function bedrockParams(params: Record<string, string>): { params: Record<string, string>; counting: boolean } {
  if (!OPERATIONS[params.operation ?? '']) throw failure('unknown_url', `Unknown operation ${params.operation}.`);
  return { params, counting: false };
}

/** InvokeModel's stream wraps each whole event; Converse's chunks are made as they come due. */
function bedrockParts(reply: Reply, request: ChatRequest): StreamPart[] {
  return versioned(request) ? invokeEvents(reply, request) : converseParts(reply, request);
}

export const bedrock: ChatStyle = {
  name: 'bedrock',
  envelope: bedrockEnvelope,
  decode: (input) => {
    const operation = OPERATIONS[input.params.operation ?? 'converse']!;
    const model = catalogModelId(input.params.modelId ?? '');
    return operation.invoke ? decodeInvoke(input, model, operation.stream) : decodeConverse(input, model, operation.stream);
  },
  encode: (reply, request) => (versioned(request) ? encodeMessage(reply, request) : encodeConverse(reply, request)),
  events: eventsOf(bedrockParts),
  parts: bedrockParts,
  streamError: bedrockStreamError,
  read: readBedrock,
};
