// Model lists: the format (and with it the error envelope) follows the request's headers.
import { promptSubject } from '../conversation/subject.js';
import { toFault } from '../scenarios/apply.js';
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
import { json, newNotes, settle, type Exchange, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { scenarioStep } from './scenario.js';
import { relay } from './upstream/relay.js';

export const LIST_ENVELOPES = { openai: openaiEnvelope, anthropic: messagesEnvelope, gemini: generateContentEnvelope };

/** The list format of a request: `forced` on the generate-content paths, else by its headers. */
export function listFormat(request: { headers: Record<string, string | string[] | undefined>; query: Record<string, unknown> }, forced?: ListFormat): ListFormat {
  return forced ?? listFormatOf(request.headers, request.query);
}

export function listModels(forced?: ListFormat) {
  return (mock: Mock, exchange: Exchange): Promise<Outcome> =>
    settle(newNotes('models'), async (notes, headers) => {
      const format = listFormat(exchange, forced);
      const subject = promptSubject('', '', exchange.headers);
      const decision = scenarioStep(mock, exchange, LIST_ENVELOPES[format], subject, notes, headers);
      if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
      if (exchange.upstream) return relay(mock, exchange, notes);
      const models = mock.store.current.models;
      const body = format === 'anthropic' ? anthropicList(models, exchange.query) : format === 'gemini' ? geminiList(models, exchange.query) : openaiList(models);
      return { ...json(body), fault: toFault(decision.fault, () => []) };
    });
}

export function getModel(forced?: ListFormat) {
  return (mock: Mock, exchange: Exchange): Promise<Outcome> =>
    settle(newNotes('models'), async (notes, headers) => {
      const format = listFormat(exchange, forced);
      const id = String(exchange.params.model).replace(/^models\//, '');
      notes.model = id;
      const decision = scenarioStep(mock, exchange, LIST_ENVELOPES[format], promptSubject(id, '', exchange.headers), notes, headers);
      if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
      if (exchange.upstream) return relay(mock, exchange, notes);
      const model = findModel(mock.store.current.models, id);
      const body = format === 'anthropic' ? anthropicModel(model) : format === 'gemini' ? geminiModel(model) : openaiModel(model);
      return { ...json(body), fault: toFault(decision.fault, () => []) };
    });
}
