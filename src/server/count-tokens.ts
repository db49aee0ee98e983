// Token counting endpoints (generate-content `countTokens`, messages `count_tokens`): the chat
// request decoded as the style reads it, counted with the same figures a reply would bill.
import type { Context } from 'koa';
import { countInputTokens } from '../conversation/reply.js';
import { chatSubject } from '../conversation/subject.js';
import type { ChatRequest } from '../conversation/types.js';
import { applyScenario, toFault } from '../scenarios/apply.js';
import type { ChatStyle, StyleInput } from '../styles/style.js';
import { requireModel, styleInput } from './request.js';
import type { Mock, MockState } from './context.js';
import { CHAT_STYLE_MODELS } from './image-output.js';
import { write } from './writer.js';

export interface TokenCounting {
  decode(input: StyleInput): ChatRequest;
  encode(inputTokens: number, request: ChatRequest): unknown;
}

export function countTokensHandler(mock: Mock, style: ChatStyle, counting: TokenCounting) {
  return async (ctx: Context): Promise<void> => {
    const state = ctx.state as MockState;
    const request = counting.decode(styleInput(ctx));
    state.notes.model = request.model;
    requireModel(mock, request.model, CHAT_STYLE_MODELS);
    const outcome = await applyScenario(mock, ctx, chatSubject(request));
    const body = counting.encode(countInputTokens(request), request);
    await write(ctx, { kind: 'json', status: 200, headers: {}, body }, toFault(outcome.fault, style.streamError));
  };
}
