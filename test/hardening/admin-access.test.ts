// The admin API answers only the developer's own pages and tools: a page on another site cannot
// add a fixture with a form POST, read the journal cross-origin, or reach the mock by DNS
// rebinding; the model API stays open to every page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectEnvelope, send } from './wire.js';

let server: TestServer;
const EVIL = 'https://evil.example';

beforeAll(async () => {
  server = await startTestServer({ adminOrigin: 'http://app.test:3000', adminHost: 'mock.internal' });
});
afterAll(() => server.close());

const fixtureForm = 'chat%5B0%5D%5Bname%5D=planted&chat%5B0%5D%5Breply%5D%5Btext%5D=pwned';

describe('a page on another site', () => {
  it('cannot add a fixture with a cross-origin form POST (no preflight needed)', async () => {
    const headers = { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' };
    const answer = await send(server.url, 'POST', '/__admin/fixtures', headers, fixtureForm);
    expect(answer.status).toBe(403);
    expectEnvelope('openai', answer, 'cross-origin form POST');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    const listed = await send(server.url, 'GET', '/__admin/fixtures', {});
    expect(listed.text).not.toContain('planted');
  });

  it('cannot read the journal cross-origin, nor pass a preflight', async () => {
    const read = await send(server.url, 'GET', '/__admin/requests', { origin: EVIL });
    expect(read.status).toBe(403);
    expect(read.text).not.toContain('"requests"');
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await send(server.url, 'OPTIONS', '/__admin/requests', { origin: EVIL, 'access-control-request-method': 'DELETE' });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    // The router ignores case; so does the guard.
    expect((await send(server.url, 'GET', '/__ADMIN/requests', { origin: EVIL })).status).toBe(403);
    expect((await send(server.url, 'GET', '/__admin/requests', { origin: 'null' })).status).toBe(403);
  });

  it('is refused even from a loopback origin when the form body is not JSON', async () => {
    const headers = { origin: 'http://localhost:5173', 'content-type': 'text/plain' };
    const answer = await send(server.url, 'POST', '/__admin/fixtures', headers, JSON.stringify({ chat: [{ name: 'planted', reply: { text: 'x' } }] }));
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.text).error.message).toContain('application/json');
  });
});

describe('the developer\'s own pages and tools', () => {
  it.each(['http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3000', 'http://app.test:3000'])('%s is answered, its origin echoed', async (origin) => {
    const read = await send(server.url, 'GET', '/__admin/health', { origin });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe(origin);
    const preflight = await send(server.url, 'OPTIONS', '/__admin/fixtures', {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, authorization',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    expect(preflight.headers['access-control-allow-headers']).toContain('authorization');
  });

  it('the mock\'s own origin and tools without an Origin are answered', async () => {
    const own = new URL(server.url).origin;
    expect((await send(server.url, 'GET', '/__admin/health', { origin: own })).status).toBe(200);
    const added = await send(server.url, 'POST', '/__admin/fixtures?session=own', { 'content-type': 'application/json' }, JSON.stringify({ chat: [{ name: 'mine', reply: { text: 'ok' } }] }));
    expect(added.status).toBe(201);
    // A mutating request without a body needs no content type.
    expect((await send(server.url, 'POST', '/__admin/reset?session=own', {})).status).toBe(200);
  });
});

describe('DNS rebinding', () => {
  it('Host: attacker.example is refused on admin routes and served on model routes', async () => {
    const port = new URL(server.url).port;
    const admin = await send(server.url, 'GET', '/__admin/requests', { host: `attacker.example:${port}` });
    expect(admin.status).toBe(403);
    expect(JSON.parse(admin.text).error.code).toBe('admin_host_refused');
    const model = await send(server.url, 'GET', '/v1/models', { host: `attacker.example:${port}`, authorization: 'Bearer sk-x', origin: EVIL });
    expect(model.status).toBe(200);
    expect(model.headers['access-control-allow-origin']).toBe(EVIL);
  });

  it.each(['localhost:1', '127.0.0.1', '[::1]:9', 'MOCK.internal:8080'])('Host %s is answered', async (host) => {
    expect((await send(server.url, 'GET', '/__admin/health', { host })).status).toBe(200);
  });
});

describe('start-up', () => {
  it('refuses an empty --admin-token', async () => {
    await expect(startMockServer({ adminToken: '', watch: false })).rejects.toThrow(/admin-token must not be empty/);
  });

  it('warns when binding beyond loopback without a token, and not with one', async () => {
    const lines: string[] = [];
    const open = await startMockServer({ host: '0.0.0.0', watch: false, logLevel: 'error', logger: (line) => lines.push(line) });
    await open.close();
    expect(lines.join('\n')).toMatch(/warning: listening on 0\.0\.0\.0 without --admin-token/);
    lines.length = 0;
    const locked = await startMockServer({ host: '0.0.0.0', adminToken: 't', watch: false, logLevel: 'error', logger: (line) => lines.push(line) });
    await locked.close();
    expect(lines).toEqual([]);
  });
});
