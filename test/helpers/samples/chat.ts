// Samples of the chat styles' rows (from the registry), the stored responses and the model lists.
import { idOf, type DoorSamples } from './sample.js';

const ask = [{ role: 'user', content: 'hi' }];
const tool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
export const ANTHROPIC_HEADERS = { 'anthropic-version': '2023-06-01' };
const contents = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
const geminiText = { content: { parts: [{ text: 'hi' }] } };
const generated = { status: 200, source: 'generated' } as const;

/** A generate-content action on a model (`gemini-2.5-flash:generateContent`). */
const action = (model: string, name: string, body: unknown, query?: Record<string, string>) => ({
  label: name,
  request: { params: { target: `${model}:${name}` }, body, ...(query && { query }) },
  model,
  ...generated,
});

const GENERATE_CONTENT: DoorSamples = {
  door: 'generate-content',
  rows: {
    'POST /v1beta/models/:target': [
      action('gemini-2.5-flash', 'generateContent', { ...contents, generationConfig: { temperature: 0.5 } }),
      action('gemini-2.5-flash', 'streamGenerateContent', contents, { alt: 'sse' }),
      action('gemini-2.5-flash', 'countTokens', contents),
      action('gemini-embedding-001', 'embedContent', { ...geminiText, outputDimensionality: 8 }),
      action('gemini-embedding-001', 'batchEmbedContents', {
        requests: [{ model: 'models/gemini-embedding-001', ...geminiText, taskType: 'RETRIEVAL_DOCUMENT', title: 'T' }],
      }),
    ],
    'POST /v1/models/:target': action('gemini-2.5-flash', 'generateContent', contents),
  },
};

const RESPONSES: DoorSamples = {
  door: 'responses',
  rows: {
    'POST /v1/responses': [
      { request: { body: { model: 'gpt-4o-mini', input: [{ role: 'user', content: 'hi' }] } }, model: 'gpt-4o-mini', ...generated },
      { label: 'in the background', request: { body: { model: 'gpt-4o-mini', input: 'hi', background: true } }, model: 'gpt-4o-mini', ...generated },
    ],
    'POST /v1/responses/input_tokens': { request: { body: { model: 'gpt-4o-mini', input: 'hi' } }, model: 'gpt-4o-mini', ...generated },
    'GET /v1/responses/:id': { after: 'POST /v1/responses', request: (made) => ({ params: { id: idOf(made) } }), status: 200, model: 'gpt-4o-mini' },
    'DELETE /v1/responses/:id': { after: 'POST /v1/responses', request: (made) => ({ params: { id: idOf(made) } }), status: 200 },
    'POST /v1/responses/:id/cancel': { after: 'POST /v1/responses#in the background', request: (made) => ({ params: { id: idOf(made) } }), status: 200 },
    'GET /v1/responses/:id/input_items': { after: 'POST /v1/responses', request: (made) => ({ params: { id: idOf(made) }, query: { limit: '2' } }), status: 200 },
  },
};

const MESSAGES: DoorSamples = {
  door: 'messages',
  rows: {
    'POST /v1/messages': {
      request: { headers: ANTHROPIC_HEADERS, body: { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] } },
      model: 'claude-sonnet-4-5',
      ...generated,
    },
    'POST /v1/messages/count_tokens': {
      request: { headers: ANTHROPIC_HEADERS, body: { model: 'claude-sonnet-4-5', messages: ask, system: 'Be brief.' } },
      model: 'claude-sonnet-4-5',
      ...generated,
    },
  },
};

const CHAT_COMPLETIONS: DoorSamples = {
  door: 'chat-completions',
  rows: {
    'POST /v1/chat/completions': { request: { body: { model: 'gpt-4o-mini', messages: ask, tools: [tool], stream: false } }, model: 'gpt-4o-mini', ...generated },
  },
};

const MODELS: DoorSamples = {
  door: 'models',
  rows: {
    'GET /v1/models': [
      { label: 'OpenAI', request: {}, status: 200 },
      { label: 'Anthropic', request: { headers: ANTHROPIC_HEADERS, query: { limit: '2' } }, status: 200 },
      { label: 'Gemini', request: { query: { key: 'k' } }, status: 200 },
    ],
    'GET /v1/models/:model': { request: { params: { model: 'gpt-4o-mini' } }, status: 200, model: 'gpt-4o-mini' },
    'GET /v1beta/models': { request: { query: { pageSize: '2' } }, status: 200 },
    'GET /v1beta/models/:model': { request: { params: { model: 'gemini-2.5-flash' } }, status: 200, model: 'gemini-2.5-flash' },
  },
};

export const CHAT_SAMPLES: readonly DoorSamples[] = [GENERATE_CONTENT, RESPONSES, MESSAGES, CHAT_COMPLETIONS, MODELS];
