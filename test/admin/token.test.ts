// --admin-token: the admin API then wants it as a bearer token; the model routes do not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ adminToken: 'let-me-in' });
});
afterAll(() => server.close());

describe('--admin-token', () => {
  it('refuses admin calls without the token, in the chat-completions envelope', async () => {
    for (const [path, method] of [['/requests', 'GET'], ['/reset', 'POST'], ['/scenario', 'DELETE'], ['/fixtures', 'GET']] as const) {
      const response = await server.admin(path, { method, headers: { authorization: 'Bearer wrong' } });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('admin') } });
    }
  });

  it('serves them with it', async () => {
    const response = await server.admin('/requests', { headers: { authorization: 'Bearer let-me-in' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ requests: [], total: 0, more: false });
  });
});
