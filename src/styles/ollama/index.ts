// The Ollama style (`POST /api/chat`, `POST /api/generate`): NDJSON streams by default.
import { envelopeEvents } from '../envelope.js';
import type { ChatStyle } from '../style.js';
import { decodeOllama } from './decode.js';
import { encodeOllama, ollamaEvents } from './encode.js';
import { ollamaEnvelope, ollamaModelNotFound } from './envelope.js';
import { ollamaCatalogId } from './model-ids.js';
import { readOllama } from './read.js';

export const ollama: ChatStyle = {
  name: 'ollama',
  envelope: ollamaEnvelope,
  decode: (input) => decodeOllama(input),
  encode: encodeOllama,
  events: ollamaEvents,
  streamError: envelopeEvents(ollamaEnvelope),
  read: readOllama,
  models: { catalogId: ollamaCatalogId, notFound: ollamaModelNotFound },
};
