// Model lists: the format (and with it the error envelope) follows the request's headers, except
// on the generate-content paths, which always speak Gemini's.
import { promptSubject } from '../conversation/subject.js';
import { generateContentEnvelope } from '../styles/generate-content/envelope.js';
import { messagesEnvelope } from '../styles/messages/envelope.js';
import {
  anthropicList,
  anthropicModel,
  findModel,
  geminiList,
  geminiModel,
  listFormatOf,
  openaiList,
  openaiModel,
  type ListFormat,
} from '../styles/model-lists.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import { openrouterList } from '../styles/openrouter/models.js';
import { json, type Door, type Exchange, type Operation } from './exchange.js';
import type { Mock } from './mock.js';
import { modelOperation } from './operation.js';

const LIST_ENVELOPES = { openai: openaiEnvelope, anthropic: messagesEnvelope, gemini: generateContentEnvelope };

/** The list format of a request: `forced` on the generate-content paths, else by its headers. */
function listFormat(request: { headers: Record<string, string | string[] | undefined>; query: Record<string, unknown> }, forced?: ListFormat): ListFormat {
  return forced ?? listFormatOf(request.headers, request.query);
}

/** The model lists' door: its envelope is chosen before the key is checked, so a 401 already speaks the client's dialect. */
export function modelsDoor(forced?: ListFormat): Door {
  return { style: 'models', envelope: (request) => LIST_ENVELOPES[listFormat(request, forced)] };
}

/** An answer about the whole catalog: held by the mock, about no model. */
function catalogAnswer(answer: (mock: Mock, exchange: Exchange) => unknown): Operation {
  return modelOperation({
    held: true,
    read: () => ({ model: null }),
    ask: (_mock, exchange) => ({ model: null, subject: promptSubject('', '', exchange.headers) }),
    build: (mock, exchange) => json(answer(mock, exchange)),
  });
}

/** `GET /v1/models` and `/v1beta/models`: the catalog in the client's format, with its vendor's paging. */
export function listModels(forced?: ListFormat): Operation {
  return catalogAnswer((mock, exchange) => {
    const models = mock.store.current.models;
    const format = listFormat(exchange, forced);
    return format === 'anthropic' ? anthropicList(models, exchange.query) : format === 'gemini' ? geminiList(models, exchange.query) : openaiList(models);
  });
}

/** `GET /v1/models/{model}` and `/v1beta/models/{model}`. */
export function getModel(forced?: ListFormat): Operation {
  return modelOperation({
    held: true,
    read: (_mock, exchange) => ({ model: String(exchange.params.model).replace(/^models\//, '') }),
    ask: (_mock, exchange, { model }) => ({ model, subject: promptSubject(model, '', exchange.headers) }),
    build: (mock, exchange, { model: id }) => {
      const model = findModel(mock.store.current.models, id);
      const format = listFormat(exchange, forced);
      return json(format === 'anthropic' ? anthropicModel(model) : format === 'gemini' ? geminiModel(model) : openaiModel(model));
    },
  });
}

/** OpenRouter's `GET /api/v1/models`: its own form, whatever the request's headers say. */
export const openrouterModels = catalogAnswer((mock) => openrouterList(mock.store.current.models));
