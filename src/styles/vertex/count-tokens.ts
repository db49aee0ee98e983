// Vertex's token counting: Gemini's `countTokens` action, and Anthropic's own model path
// `publishers/anthropic/models/count-tokens:rawPredict`, whose body is messages' count_tokens body
// with the model in it, answered `{ input_tokens }` as Anthropic answers it.
import { versioned } from '../../conversation/messages-wire.js';
import { decodeCountTokens as decodeGeminiCount } from '../generate-content/decode.js';
import { encodeCountTokens as encodeGeminiCount } from '../generate-content/encode.js';
import { decodeCountTokens as decodeMessagesCount } from '../messages/decode.js';
import type { TokenCounting } from '../style.js';
import { vertexModels } from './model-ids.js';
import { anthropicPublished } from './paths.js';

/** The version the Vertex SDK puts in every body; Vertex's own documented count body leaves it out. */
const VERTEX_VERSION = 'vertex-2023-10-16';

export const vertexTokenCounting: TokenCounting = {
  decode: (input) => {
    if (!anthropicPublished(input.params)) return { ...decodeGeminiCount(input), style: 'vertex' };
    const request = decodeMessagesCount(input);
    // The answer follows the publisher's wire, which a versioned body marks for every Vertex answer.
    return { ...request, style: 'vertex', body: { anthropic_version: VERTEX_VERSION, ...request.body } };
  },
  encode: (inputTokens, request) => (versioned(request) ? { input_tokens: inputTokens } : encodeGeminiCount(inputTokens, request)),
  models: vertexModels,
};
