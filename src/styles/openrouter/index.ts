// The OpenRouter style (`POST /api/v1/chat/completions`): the OpenAI contract with vendor-prefixed
// model ids, costs and its own stream keep-alive.
import { invalid } from '../../conversation/errors.js';
import type { ChatRequest } from '../../conversation/types.js';
import { decodeChatCompletions } from '../chat-completions/decode.js';
import { readChatCompletion } from '../chat-completions/read.js';
import { envelopeEvents } from '../envelope.js';
import type { ChatStyle } from '../style.js';
import { eventsOf } from '../piece-events.js';
import { encodeOpenrouter, generationId, openrouterParts } from './encode.js';
import { openrouterEnvelope } from './envelope.js';
import { openrouterCatalogId } from './model-ids.js';

export const openrouter: ChatStyle = {
  name: 'openrouter',
  envelope: openrouterEnvelope,
  decode: (input): ChatRequest => {
    const request = decodeChatCompletions(input);
    // OpenRouter's own accounting switch: `{ include: true }` asks the answer's cost.
    const usage = request.body.usage;
    if (usage !== undefined && usage !== null && (typeof usage !== 'object' || Array.isArray(usage))) {
      throw invalid("Invalid value for 'usage': expected an object such as { \"include\": true }.", 'usage');
    }
    return { ...request, style: 'openrouter' };
  },
  encode: encodeOpenrouter,
  events: eventsOf(openrouterParts),
  parts: openrouterParts,
  streamError: envelopeEvents(openrouterEnvelope),
  read: readChatCompletion,
  headers: (reply) => ({ 'x-generation-id': generationId(reply) }),
  models: { catalogId: openrouterCatalogId },
};
