// Samples of the other providers' rows (SPEC 23): each as its own client writes it.
import type { DoorSamples } from './sample.js';

const generated = { status: 200, source: 'generated' } as const;

const OLLAMA: DoorSamples = {
  door: 'ollama',
  rows: {
    'POST /api/chat': [
      { request: { body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: false } }, model: 'gpt-4o-mini', ...generated },
      { label: 'streamed', request: { body: { model: 'gpt-4o-mini:latest', messages: [{ role: 'user', content: 'hi' }], options: { temperature: 0.2 } } }, model: 'gpt-4o-mini', ...generated },
    ],
    'POST /api/generate': { request: { body: { model: 'gpt-4o-mini', prompt: 'hi', stream: false } }, model: 'gpt-4o-mini', ...generated },
    'POST /api/embed': { request: { body: { model: 'text-embedding-3-small', input: ['hi', 'there'] } }, model: 'text-embedding-3-small', ...generated },
    'GET /api/tags': { request: {}, status: 200 },
    'POST /api/show': { request: { body: { model: 'gpt-4o-mini:latest' } }, status: 200, model: 'gpt-4o-mini' },
    'GET /api/version': { request: {}, status: 200 },
  },
};

const OPENROUTER: DoorSamples = {
  door: 'openrouter',
  rows: {
    'POST /api/v1/chat/completions': {
      request: { body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], usage: { include: true } } },
      model: 'gpt-4o-mini',
      ...generated,
    },
  },
};

export const PROVIDER_SAMPLES: readonly DoorSamples[] = [OLLAMA, OPENROUTER];
