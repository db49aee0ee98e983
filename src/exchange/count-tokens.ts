// Token counting (generate-content `countTokens`, messages `count_tokens`): the chat request
// decoded as the style reads it, counted with the same figures a reply would bill.
import { countInputTokens } from '../conversation/input-tokens.js';
import { chatSubject } from '../conversation/subject.js';
import type { ChatRequest } from '../conversation/types.js';
import { toFault } from '../scenarios/apply.js';
import type { ChatStyle, DecodeContext, StyleInput } from '../styles/style.js';
import { json, newNotes, settle, type Exchange, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { CHAT_STYLE_MODELS, requireModel, styleInput } from './request.js';
import { scenarioStep } from './scenario.js';
import { relay } from './upstream/relay.js';
import { storedConversation } from '../state/session.js';

export interface TokenCounting {
  /** An empty `model` means the request named none, where the endpoint allows that. */
  decode(input: StyleInput, context: DecodeContext): ChatRequest;
  encode(inputTokens: number, request: ChatRequest): unknown;
}

export function countTokens(style: ChatStyle, counting: TokenCounting) {
  return (mock: Mock, exchange: Exchange): Promise<Outcome> =>
    settle(newNotes(style.name), async (notes, headers) => {
      const session = exchange.session;
      const request = counting.decode(styleInput(exchange), { storedTurns: (id) => storedConversation(session, id) });
      notes.model = request.model || null;
      const forwarding = exchange.upstream !== undefined;
      if (request.model !== '' && !forwarding) requireModel(mock, request.model, CHAT_STYLE_MODELS);
      const decision = scenarioStep(mock, exchange, style.envelope, chatSubject(request), notes, headers);
      if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
      // No fixture counts tokens: with an upstream, it counts them.
      if (forwarding) return relay(mock, exchange, notes);
      return { ...json(counting.encode(countInputTokens(request), request)), fault: toFault(decision.fault, () => []) };
    });
}
