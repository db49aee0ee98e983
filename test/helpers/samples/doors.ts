// Samples of the other doors: embeddings, rerank, moderation and legacy completions. The
// bad-body test (test/hardening/doors-bodies.test.ts) breaks these bodies one field at a time.
import type { DoorSamples } from './sample.js';

const generated = { status: 200, source: 'generated' } as const;

export const DOOR_SAMPLES: readonly DoorSamples[] = [
  {
    door: 'embeddings',
    rows: {
      'POST /v1/embeddings': { request: { body: { model: 'text-embedding-3-small', input: ['hi', 'there'], dimensions: 8 } }, model: 'text-embedding-3-small', ...generated },
    },
  },
  {
    door: 'rerank',
    rows: {
      'POST /v1/rerank': {
        request: { body: { model: 'rerank-v3.5', query: 'q', documents: ['a', { text: 'b' }], top_n: 1, return_documents: true } },
        model: 'rerank-v3.5',
        ...generated,
      },
      'POST /v2/rerank': { request: { body: { model: 'rerank-v3.5', query: 'q', documents: ['a', 'b'] } }, model: 'rerank-v3.5', ...generated },
    },
  },
  {
    door: 'moderations',
    rows: {
      'POST /v1/moderations': { request: { body: { model: 'omni-moderation-latest', input: [{ type: 'text', text: 'hi' }] } }, model: 'omni-moderation-latest', ...generated },
    },
  },
  {
    door: 'completions',
    rows: {
      'POST /v1/completions': { request: { body: { model: 'gpt-3.5-turbo-instruct', prompt: 'hi', max_tokens: 4, stop: ['x'] } }, model: 'gpt-3.5-turbo-instruct', ...generated },
    },
  },
];
