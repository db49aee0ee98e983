// GET / and the inspector's files: a browser is sent to the page, anything else gets a JSON
// index; the page's files need no token and come with script and style content types.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../../src/admin/routes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ adminToken: 'secret' });
});
afterAll(() => server.close());

describe('GET /', () => {
  it('redirects a browser navigating there to the inspector', async () => {
    const response = await fetch(`${server.url}/`, { redirect: 'manual', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/__admin/ui');
  });

  it.each([['*/*'], ['application/json'], [undefined]])('answers Accept %s with a JSON index', async (accept) => {
    const response = await fetch(`${server.url}/`, { headers: accept ? { accept } : {} });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const index = (await response.json()) as { inspector: string; admin: string[] };
    expect(index.inspector).toBe('/__admin/ui');
    expect(index.admin).toContain('GET /__admin/events');
  });

  it('lists every route of the admin table and the shell beside it (MCP, the inspector), each path once', async () => {
    const index = (await (await fetch(`${server.url}/`)).json()) as { admin: string[] };
    const listed = index.admin.flatMap((line) => {
      const [verbs, path] = line.split(' ');
      return verbs!.split('|').map((verb) => `${verb} ${path}`);
    });
    for (const route of ADMIN_ROUTES) expect(listed).toContain(`${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(listed).toEqual(expect.arrayContaining(['POST /__admin/mcp', 'GET /__admin/scenarios', 'GET /__admin/events', 'GET /__admin/ui']));
    const paths = index.admin.map((line) => line.split(' ')[1]);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('is not journaled: it is the way into the inspector, not a request of the app', async () => {
    await fetch(`${server.url}/`);
    const journal = (await (await server.admin('/requests', { headers: { authorization: 'Bearer secret' } })).json()) as { requests: Array<{ path: string }> };
    expect(journal.requests.map((entry) => entry.path)).not.toContain('/');
  });
});

describe('the inspector files', () => {
  it.each([
    ['/__admin/ui', 'text/html'],
    ['/__admin/ui/', 'text/html'],
    ['/__admin/ui/app.js', 'text/javascript'],
    ['/__admin/ui/style.css', 'text/css'],
    ['/__admin/ui/vendor/preact.mjs', 'text/javascript'],
    ['/__admin/ui/vendor/hooks.mjs', 'text/javascript'],
    ['/__admin/ui/vendor/htm.mjs', 'text/javascript'],
    ['/__admin/ui/vendor/preact.mjs.map', 'application/json'],
  ])('serves %s as %s without the admin token', async (path, type) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(new RegExp(`^${type}`));
  });

  it('tells the page that a token is needed, and serves nothing outside its folder', async () => {
    expect(await (await fetch(`${server.url}/__admin/ui/settings.json`)).json()).toEqual({ token_required: true });
    for (const path of ['/__admin/ui/..%2Fpackage.json', '/__admin/ui/vendor/..%2F..%2Fpackage.json', '/__admin/ui/missing.js', '/__admin/ui/vendor/react.mjs', '/__admin/ui/vendor/__proto__', '/__admin/ui/vendor/constructor', '/__admin/ui/__proto__.js']) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
    }
  });

  it('keeps the admin API itself behind the token', async () => {
    expect((await fetch(`${server.url}/__admin/tasks`)).status).toBe(401);
    expect((await fetch(`${server.url}/__admin/scenarios`, { headers: { authorization: 'Bearer secret' } })).status).toBe(200);
  });
});
