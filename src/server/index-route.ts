// `GET /`: a browser navigating there is sent to the inspector page; anything else (a script,
// curl, `*/*`) gets a small JSON index of what the mock serves, rather than a 404.
import type { Context } from 'koa';
import { ADMIN_ROUTES } from '../admin/routes.js';
import { MODEL_ROUTES } from '../exchange/model-routes.js';
import { write } from './writer.js';

/** What the HTTP shell serves under `/__admin` beside the table: the inspector's routes and MCP's. */
const SHELL_ADMIN_ROUTES = [
  { method: 'GET', path: '/__admin/events' },
  { method: 'GET', path: '/__admin/ui' },
  { method: 'POST', path: '/__admin/mcp' },
];

/** A route table as `GET|DELETE /v1/responses/{id}`, one line a path, so the index cannot drift from it. */
function indexLines(routes: ReadonlyArray<{ method: string; path: string }>): string[] {
  const methods = new Map<string, string[]>();
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    methods.set(path, [...(methods.get(path) ?? []), route.method]);
  }
  return [...methods].map(([path, verbs]) => `${verbs.join('|')} ${path}`);
}

const INDEX = {
  name: 'model-gateway-mock',
  inspector: '/__admin/ui',
  endpoints: indexLines(MODEL_ROUTES),
  admin: indexLines([...ADMIN_ROUTES, ...SHELL_ADMIN_ROUTES]),
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
