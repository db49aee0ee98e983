// `POST /v1beta/models/{model}:{action}`: one path segment holds the model and the action, so the
// operation splits them and hands over to chat, token counting or embeddings.
import { decodeCountTokens } from '../styles/generate-content/decode.js';
import { encodeCountTokens } from '../styles/generate-content/encode.js';
import { generateContent, parseTarget, type Action } from '../styles/generate-content/index.js';
import { chat } from './chat.js';
import { countTokens } from './count-tokens.js';
import { batchEmbedContents, embedContent } from './embeddings.js';
import type { Exchange, Operation, Outcome } from './exchange.js';
import type { Mock } from './mock.js';

const generate = chat(generateContent);
const count = countTokens(generateContent, { decode: decodeCountTokens, encode: encodeCountTokens });

const BY_ACTION: Partial<Record<Action, Operation>> = { countTokens: count, embedContent, batchEmbedContents };

export function generateContentAction(mock: Mock, exchange: Exchange): Promise<Outcome> {
  const { model, action } = parseTarget(exchange.params.target ?? '');
  const params = { ...exchange.params, model, action };
  return (BY_ACTION[action] ?? generate)(mock, { ...exchange, params });
}
