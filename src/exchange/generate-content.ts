// `POST /v1beta/models/{model}:{action}`: one path segment holds the model and the action, so the
// operation splits them and hands over to chat or token counting.
import { decodeCountTokens } from '../styles/generate-content/decode.js';
import { encodeCountTokens } from '../styles/generate-content/encode.js';
import { generateContent, parseTarget } from '../styles/generate-content/index.js';
import { chat } from './chat.js';
import { countTokens } from './count-tokens.js';
import type { Exchange, Outcome } from './exchange.js';
import type { Mock } from './mock.js';

const generate = chat(generateContent);
const count = countTokens(generateContent, { decode: decodeCountTokens, encode: encodeCountTokens });

export function generateContentAction(mock: Mock, exchange: Exchange): Promise<Outcome> {
  const { model, action } = parseTarget(exchange.params.target ?? '');
  const params = { ...exchange.params, model, action };
  return (action === 'countTokens' ? count : generate)(mock, { ...exchange, params });
}
