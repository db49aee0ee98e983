// `POST /v1beta/models/{model}:{action}`: path-to-regexp reads `:` as a parameter, so the route
// takes the whole segment and the style splits model from action.
import type { Context } from 'koa';
import { decodeCountTokens } from '../styles/generate-content/decode.js';
import { encodeCountTokens } from '../styles/generate-content/encode.js';
import { generateContent, parseTarget } from '../styles/generate-content/index.js';
import { chatHandler } from './chat.js';
import { countTokensHandler } from './count-tokens.js';
import type { Mock } from './context.js';

export function generateContentActions(mock: Mock) {
  const chat = chatHandler(mock, generateContent);
  const count = countTokensHandler(mock, generateContent, { decode: decodeCountTokens, encode: encodeCountTokens });
  return async (ctx: Context): Promise<void> => {
    const params = (ctx as unknown as { params: Record<string, string> }).params;
    const { model, action } = parseTarget(params.target ?? '');
    params.model = model;
    params.action = action;
    await (action === 'countTokens' ? count(ctx) : chat(ctx));
  };
}
