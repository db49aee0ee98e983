// `GET /`: a browser navigating there is sent to the inspector page; anything else (a script,
// curl, `*/*`) gets a small JSON index of what the mock serves, rather than a 404.
import type { Context } from 'koa';
import { ADMIN_ROUTES } from '../admin/routes.js';
import { write } from './writer.js';

/** What the HTTP shell serves under `/__admin` beside the table: the inspector's routes and MCP's. */
const SHELL_ADMIN_ROUTES = ['GET /__admin/events', 'GET /__admin/ui', 'POST /__admin/mcp'];

/** `GET|DELETE /__admin/requests`: the admin table's routes, one line a path, so the index cannot drift from it. */
function adminIndex(): string[] {
  const methods = new Map<string, string[]>();
  for (const route of ADMIN_ROUTES) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    methods.set(path, [...(methods.get(path) ?? []), route.method]);
  }
  return [...[...methods].map(([path, verbs]) => `${verbs.join('|')} ${path}`), ...SHELL_ADMIN_ROUTES];
}

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
    'POST /v1beta/models/{model}:generateContent|streamGenerateContent|countTokens',
    'POST /v1/models/{model}:generateContent|streamGenerateContent|countTokens',
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
  ],
  admin: adminIndex(),
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
