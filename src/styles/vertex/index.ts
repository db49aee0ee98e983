// The vertex style: Vertex AI's `projects/{p}/locations/{l}/publishers/{publisher}/models/{m}:{action}`,
// Google's models in generate-content's wire (`generateContent`, `streamGenerateContent`,
// `countTokens`), Anthropic's in the messages wire (`rawPredict`, `streamRawPredict`), all in
// Google's error envelope and journaled as `vertex`.
import type { MockError } from '../../conversation/errors.js';
import type { Framing } from '../../conversation/plan.js';
import { decodeGenerateContent } from '../generate-content/decode.js';
import { generateContentEnvelope } from '../generate-content/envelope.js';
import { streamFraming } from '../generate-content/index.js';
import { messagesStreamError } from '../messages/events.js';
import { versioned } from '../../conversation/messages-wire.js';
import { decodeVersioned } from '../messages/versioned.js';
import { envelopeEvents } from '../envelope.js';
import type { ChatStyle, StreamErrorContext } from '../style.js';
import { eventsOf } from '../piece-events.js';
import { encodeVertex, vertexParts } from './encode.js';
import { vertexModels } from './model-ids.js';
import { anthropicPublished } from './paths.js';
import { readVertex } from './read.js';

const MISSING_VERSION = 'anthropic_version: Field required';

const geminiStreamError = envelopeEvents(generateContentEnvelope);

/** An Anthropic model's stream breaks with the messages wire's error event, a Gemini model's with Google's envelope. */
function vertexStreamError(error: MockError, context?: StreamErrorContext) {
  return context && versioned(context.request) ? messagesStreamError(error, context) : geminiStreamError(error);
}

/** Anthropic's streams are SSE whatever the query says; Google's are SSE when `alt=sse` asks. */
export function vertexFraming(request: { query: Record<string, unknown>; params: Record<string, string> }): Framing {
  return anthropicPublished(request.params) ? 'sse' : streamFraming(request);
}

export const vertex: ChatStyle = {
  name: 'vertex',
  envelope: generateContentEnvelope,
  decode: (input) => {
    const { model = '', action } = input.params;
    const decoded = anthropicPublished(input.params) ? decodeVersioned(input, model, action === 'streamRawPredict', MISSING_VERSION) : decodeGenerateContent(input);
    return { ...decoded, style: 'vertex' };
  },
  encode: encodeVertex,
  events: eventsOf(vertexParts),
  parts: vertexParts,
  streamError: vertexStreamError,
  read: readVertex,
  models: vertexModels,
};
