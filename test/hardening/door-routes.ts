// The other doors' routes (embeddings, generate-content's embedding actions, rerank, moderation,
// legacy completions), each with a body it accepts, for the fuzzer's route table (wire.ts).
import type { Route } from './wire.js';

export const DOOR_ROUTES: Route[] = [
  { method: 'POST', path: '/v1/embeddings', envelope: 'openai', body: 'json', valid: { model: 'text-embedding-3-small', input: ['hi', 'there'], dimensions: 8 } },
  { method: 'POST', path: '/v1beta/models/gemini-embedding-001:embedContent', envelope: 'gemini', body: 'json', valid: { content: { parts: [{ text: 'hi' }] }, outputDimensionality: 8 } },
  {
    method: 'POST',
    path: '/v1beta/models/gemini-embedding-001:batchEmbedContents',
    envelope: 'gemini',
    body: 'json',
    valid: { requests: [{ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'hi' }] }, taskType: 'RETRIEVAL_DOCUMENT', title: 'T' }] },
  },
  { method: 'POST', path: '/v1/rerank', envelope: 'openai', body: 'json', valid: { model: 'rerank-v3.5', query: 'q', documents: ['a', { text: 'b' }], top_n: 1, return_documents: true } },
  { method: 'POST', path: '/v2/rerank', envelope: 'openai', body: 'json', valid: { model: 'rerank-v3.5', query: 'q', documents: ['a', 'b'] } },
  { method: 'POST', path: '/v1/moderations', envelope: 'openai', body: 'json', valid: { model: 'omni-moderation-latest', input: [{ type: 'text', text: 'hi' }] } },
  { method: 'POST', path: '/v1/completions', envelope: 'openai', body: 'json', valid: { model: 'gpt-3.5-turbo-instruct', prompt: 'hi', max_tokens: 4, stop: ['x'] } },
];
