// The Ollama style (`POST /api/chat`, `POST /api/generate`): NDJSON streams by default.
import { envelopeEvents } from '../envelope.js';
import type { ChatStyle } from '../style.js';
import { decodeOllama } from './decode.js';
import { eventsOf } from '../piece-events.js';
import { encodeOllama, ollamaParts } from './encode.js';
import { ollamaEnvelope, ollamaModelNotFound } from './envelope.js';
import { ollamaCatalogId } from './model-ids.js';
import { readOllama } from './read.js';

export const ollama: ChatStyle = {
  name: 'ollama',
  envelope: ollamaEnvelope,
  decode: (input) => decodeOllama(input),
  encode: encodeOllama,
  events: eventsOf(ollamaParts),
  parts: ollamaParts,
  streamError: envelopeEvents(ollamaEnvelope),
  read: readOllama,
  models: { catalogId: ollamaCatalogId, notFound: ollamaModelNotFound },
};
