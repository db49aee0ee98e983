// Samples of the files and the two batch forms: a `batch` file uploaded, a batch made of it, and
// Anthropic's message batches, each read, listed, cancelled or ended on the mock clock.
import { ANTHROPIC_HEADERS } from './chat.js';
import { idOf, type DoorSamples, type Made } from './sample.js';

const LINE = { custom_id: 'line-1', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] } };
const BATCH_FILE = [{ filename: 'requests.jsonl', data: Buffer.from(`${JSON.stringify(LINE)}\n`) }];

/** Long enough for a batch of one line to end (validating, its line, finalizing). */
const BATCH_ENDED_MS = 10_000;

const byId = (made: Made) => ({ params: { id: idOf(made) } });
const byBatch = (made: Made) => ({ headers: ANTHROPIC_HEADERS, params: { id: idOf(made) } });

const FILES: DoorSamples = {
  door: 'files',
  rows: {
    'POST /v1/files': { request: { body: { purpose: 'batch' }, uploads: { file: BATCH_FILE } }, status: 200 },
    'GET /v1/files': { after: 'POST /v1/files', request: { query: { purpose: 'batch' } }, status: 200 },
    'GET /v1/files/:id': { after: 'POST /v1/files', request: byId, status: 200 },
    'GET /v1/files/:id/content': { after: 'POST /v1/files', request: byId, status: 200 },
    'DELETE /v1/files/:id': { after: 'POST /v1/files', request: byId, status: 200 },
  },
};

const BATCHES: DoorSamples = {
  door: 'batches',
  rows: {
    'POST /v1/batches': {
      after: 'POST /v1/files',
      request: (made) => ({ body: { input_file_id: idOf(made), endpoint: '/v1/chat/completions', completion_window: '24h' } }),
      status: 200,
    },
    'GET /v1/batches': { after: 'POST /v1/batches', request: { query: { limit: '5' } }, status: 200 },
    'GET /v1/batches/:id': { after: 'POST /v1/batches', waitMs: BATCH_ENDED_MS, request: byId, status: 200 },
    'POST /v1/batches/:id/cancel': { after: 'POST /v1/batches', request: byId, status: 200 },
  },
};

const MESSAGE_BATCHES: DoorSamples = {
  door: 'message-batches',
  rows: {
    'POST /v1/messages/batches': {
      request: {
        headers: ANTHROPIC_HEADERS,
        body: { requests: [{ custom_id: 'req-1', params: { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] } }] },
      },
      status: 200,
    },
    'GET /v1/messages/batches': { after: 'POST /v1/messages/batches', request: { headers: ANTHROPIC_HEADERS, query: { limit: '5' } }, status: 200 },
    'GET /v1/messages/batches/:id': { after: 'POST /v1/messages/batches', request: byBatch, status: 200 },
    'POST /v1/messages/batches/:id/cancel': { after: 'POST /v1/messages/batches', request: byBatch, status: 200 },
    'DELETE /v1/messages/batches/:id': { after: 'POST /v1/messages/batches', waitMs: BATCH_ENDED_MS, request: byBatch, status: 200 },
    'GET /v1/messages/batches/:id/results': { after: 'POST /v1/messages/batches', waitMs: BATCH_ENDED_MS, request: byBatch, status: 200 },
  },
};

export const BATCH_SAMPLES: readonly DoorSamples[] = [FILES, BATCHES, MESSAGE_BATCHES];
