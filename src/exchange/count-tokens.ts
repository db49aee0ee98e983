// Token counting (generate-content `countTokens`, messages `count_tokens`, responses
// `input_tokens`): the chat request decoded as the style reads it, counted with the same figures a
// reply would bill. No fixture counts tokens: with an upstream, it counts them.
import { countInputTokens } from '../conversation/input-tokens.js';
import { chatSubject } from '../conversation/subject.js';
import { storedConversation } from '../state/session.js';
import type { TokenCounting } from '../styles/style.js';
import { json, type Operation } from './exchange.js';
import { modelOperation } from './operation.js';
import { CHAT_STYLE_MODELS, requireModel, styleInput } from './request.js';

export function countTokens(counting: TokenCounting): Operation {
  return modelOperation({
    read: (_mock, exchange) => {
      const request = counting.decode(styleInput(exchange), { storedTurns: (id) => storedConversation(exchange.session, id) });
      return { request, model: request.model || null };
    },
    ask: (mock, _exchange, { request, model }) => {
      // The upstream knows models this mock does not list.
      if (model !== null && !mock.options.upstream) requireModel(mock, model, CHAT_STYLE_MODELS);
      return { request, model, subject: chatSubject(request) };
    },
    build: (_mock, _exchange, { request }) => json(counting.encode(countInputTokens(request), request)),
  });
}
