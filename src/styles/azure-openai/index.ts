// The Azure OpenAI style: `POST /openai/deployments/{deployment}/chat/completions?api-version=V`
// (the deployment is the model) and the v1 surface `POST /openai/v1/chat/completions`.
import type { ChatRequest } from '../../conversation/types.js';
import { decodeChatCompletions } from '../chat-completions/decode.js';
import { readChatCompletion } from '../chat-completions/read.js';
import { envelopeEvents } from '../envelope.js';
import type { ChatStyle } from '../style.js';
import { eventsOf } from '../piece-events.js';
import { azureParts, encodeAzure, promptFiltered } from './encode.js';
import { azureEnvelope, deploymentNotFound } from './envelope.js';
import { requireApiVersion } from './surface.js';

export const azureOpenai: ChatStyle = {
  name: 'azure-openai',
  envelope: azureEnvelope,
  decode: (input): ChatRequest => {
    requireApiVersion(input.params, input.query);
    const deployment = input.params.deployment;
    const body = deployment !== undefined && input.body !== null && typeof input.body === 'object' ? { ...(input.body as Record<string, unknown>), model: deployment } : input.body;
    return { ...decodeChatCompletions({ ...input, body }), style: 'azure-openai' };
  },
  encode: encodeAzure,
  events: eventsOf(azureParts),
  parts: azureParts,
  streamError: envelopeEvents(azureEnvelope),
  read: readChatCompletion,
  refusal: promptFiltered,
  models: { catalogId: (id, listed) => (listed(id) ? id : undefined), notFound: deploymentNotFound },
};
