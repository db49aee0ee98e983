// Token counting (generate-content `countTokens`, messages `count_tokens`, responses
// `input_tokens`): the chat request decoded as the style reads it, counted with the same figures a
// reply would bill. No fixture counts tokens: a request that may spend the upstream is counted there.
import { countInputTokens, inputTokenSteps } from '../conversation/input-tokens.js';
import { chatSubject } from '../conversation/subject.js';
import { inSlices } from '../state/event-loop.js';
import { isLarge } from '../state/large-bodies.js';
import { storedConversation } from '../state/session.js';
import type { TokenCounting } from '../styles/style.js';
import { json, type Operation } from './exchange.js';
import { modelOperation } from './operation.js';
import { CHAT_STYLE_MODELS, requireModel, styleInput, unlisted } from './request.js';

export function countTokens(counting: TokenCounting): Operation {
  return modelOperation({
    read: (mock, exchange) => {
      const decoded = counting.decode(styleInput(exchange), { storedTurns: (id) => storedConversation(exchange.session, id) });
      const model = counting.models?.catalogId(decoded.model, (id) => mock.store.current.modelById.has(id)) ?? decoded.model;
      const request = model === decoded.model ? decoded : { ...decoded, model };
      return { request, model: request.model || null };
    },
    ask: (mock, _exchange, { request, model }) => {
      const unknown = model === null ? undefined : unlisted(mock, model, CHAT_STYLE_MODELS);
      if (model !== null && !unknown) requireModel(mock, model, CHAT_STYLE_MODELS);
      return { request, model, subject: chatSubject(request), ...(unknown && { unknown }) };
    },
    build: async (_mock, exchange, { request }) => {
      if (isLarge(exchange.bodySize)) await inSlices(inputTokenSteps(request));
      return json(counting.encode(countInputTokens(request), request));
    },
  });
}
