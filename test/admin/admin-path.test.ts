// The admin API in any case is the admin API: `GET /__ADMIN/health` is answered as the admin
// route it names (the router ignores case) and, like `/__admin/health`, is the developer's own
// request: not journaled as a model request, not counted in metrics, not announced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../helpers/events.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { send } from '../hardening/wire.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('an admin path in another case', () => {
  it('is answered as admin, and neither journaled, counted nor announced', async () => {
    const watcher = await listen(`${server.url}/__admin/events`);
    const health = await send(server.url, 'GET', '/__ADMIN/health', {});
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toHaveProperty('status');
    // The model API's CORS (every page) is not the admin API's.
    expect(health.headers['access-control-allow-origin']).toBeUndefined();
    // A model request after it: once its entry is announced, anything of the first would have been.
    const marker = await send(server.url, 'GET', '/v1/models', { authorization: 'Bearer k' });
    expect(marker.status).toBe(200);
    await watcher.until('request', 1);
    await watcher.close();
    expect(watcher.received.map((event) => event.data.path)).toEqual(['/v1/models', '/v1/models']);

    const journal = (await (await server.admin('/requests')).json()) as { requests: Array<{ path: string }> };
    expect(journal.requests.map((entry) => entry.path)).toEqual(['/v1/models']);
    const metrics = await (await server.admin('/metrics')).text();
    expect(metrics).toMatch(/^mock_requests_total\{route="\/v1\/models"/m);
    expect(metrics).not.toMatch(/route="\/__admin/i);
  });
});
