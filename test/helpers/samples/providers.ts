// Samples of the other providers' rows (SPEC 23): each as its own client writes it.
import { DOOR_SAMPLES } from './doors.js';
import { MEDIA_SAMPLES } from './media.js';
import type { DoorSamples, RouteSample, SampleRequest } from './sample.js';

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

/** The house's own sample of `POST /v1{path}`, sent to Azure's deployment and v1 paths. */
function azureRows(path: string): Record<string, RouteSample> {
  const found = [...DOOR_SAMPLES, ...MEDIA_SAMPLES].flatMap((group) => Object.entries(group.rows)).find(([key]) => key === `POST /v1${path}`)![1];
  const sample = (Array.isArray(found) ? found[0] : found) as RouteSample & { request: SampleRequest };
  const deployment = { ...sample, request: { ...sample.request, params: { deployment: sample.model ?? 'gpt-4o-mini' }, query: { 'api-version': '2024-10-21' } } };
  return { [`POST /openai/deployments/:deployment${path}`]: deployment, [`POST /openai/v1${path}`]: sample };
}

const chat = { body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] } };

const AZURE: DoorSamples = {
  door: 'azure-openai',
  rows: {
    'POST /openai/deployments/:deployment/chat/completions': {
      request: { ...chat, params: { deployment: 'gpt-4o-mini' }, query: { 'api-version': '2024-10-21' } },
      model: 'gpt-4o-mini',
      ...generated,
    },
    'POST /openai/v1/chat/completions': { request: chat, model: 'gpt-4o-mini', ...generated },
    ...['/embeddings', '/completions', '/images/generations', '/audio/speech', '/audio/transcriptions', '/audio/translations'].reduce((rows, path) => ({ ...rows, ...azureRows(path) }), {}),
  },
};

export const PROVIDER_SAMPLES: readonly DoorSamples[] = [OLLAMA, OPENROUTER, AZURE];
