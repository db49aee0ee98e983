// The OpenRouter style (`POST /api/v1/chat/completions`): the OpenAI contract with vendor-prefixed
// model ids, costs and its own stream keep-alive.
import type { ChatRequest } from '../../conversation/types.js';
import { decodeChatCompletions } from '../chat-completions/decode.js';
import { readChatCompletion } from '../chat-completions/read.js';
import { envelopeEvents } from '../envelope.js';
import type { ChatStyle } from '../style.js';
import { encodeOpenrouter, generationId, openrouterEvents } from './encode.js';
import { openrouterEnvelope } from './envelope.js';
import { openrouterCatalogId } from './model-ids.js';

export const openrouter: ChatStyle = {
  name: 'openrouter',
  envelope: openrouterEnvelope,
  decode: (input): ChatRequest => ({ ...decodeChatCompletions(input), style: 'openrouter' }),
  encode: encodeOpenrouter,
  events: openrouterEvents,
  streamError: envelopeEvents(openrouterEnvelope),
  read: readChatCompletion,
  headers: (reply) => ({ 'x-generation-id': generationId(reply) }),
  models: { catalogId: openrouterCatalogId },
};
