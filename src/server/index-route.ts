// `GET /`: a browser navigating there is sent to the inspector page; anything else (a script,
// curl, `*/*`) gets a small JSON index of what the mock serves, rather than a 404.
import type { Context } from 'koa';
import { write } from './writer.js';

const INDEX = {
  name: 'model-gateway-mock',
  inspector: '/__admin/ui',
  endpoints: [
    'POST /v1/chat/completions',
    'POST /v1/responses',
    'GET|DELETE /v1/responses/{id}',
    'POST /v1/responses/{id}/cancel',
    'GET /v1/responses/{id}/input_items',
    'POST /v1/responses/input_tokens',
    'POST /v1/messages',
    'POST /v1/messages/count_tokens',
    'POST /v1beta/models/{model}:generateContent|streamGenerateContent|countTokens|embedContent|batchEmbedContents',
    'POST /v1/embeddings',
    'POST /v1/rerank',
    'POST /v2/rerank',
    'POST /v1/moderations',
    'POST /v1/completions',
    'GET /v1/models',
    'GET /v1beta/models',
    'POST /v1/images/generations',
    'POST /v1/images/edits',
    'POST /v1/images/variations',
    'POST /v1/videos',
    'POST /v1/videos/{id}/remix',
    'POST /v1/videos/edits',
    'POST /v1/videos/extensions',
    'POST /v1/videos/characters',
    'GET /v1/videos/characters/{id}',
    'POST /v1/video/generations',
    'GET|POST /v1/files',
    'GET|DELETE /v1/files/{id}',
    'GET /v1/files/{id}/content',
    'GET|POST /v1/batches',
    'GET /v1/batches/{id}',
    'POST /v1/batches/{id}/cancel',
    'GET|POST /v1/messages/batches',
    'GET|DELETE /v1/messages/batches/{id}',
    'POST /v1/messages/batches/{id}/cancel',
    'GET /v1/messages/batches/{id}/results',
  ],
  admin: [
    'GET /__admin/health',
    'GET|DELETE /__admin/requests',
    'GET /__admin/events',
    'POST /__admin/reset',
    'GET|PUT|DELETE /__admin/scenario',
    'GET|POST /__admin/clock',
    'GET|POST /__admin/fixtures',
    'GET /__admin/tasks',
    'GET /__admin/ui',
  ],
};

export function indexRoute() {
  return async (ctx: Context): Promise<void> => {
    if (ctx.get('accept').includes('text/html')) {
      await write(ctx, { kind: 'json', status: 302, headers: { location: '/__admin/ui' }, body: { location: '/__admin/ui' } });
      return;
    }
    await write(ctx, { kind: 'json', status: 200, headers: {}, body: INDEX });
  };
}
