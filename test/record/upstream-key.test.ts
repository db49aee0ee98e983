// The upstream is the developer's account (SPEC 12): only the developer's own pages and tools
// spend it, no path parameter climbs to another upstream path, and neither the upstream's cookies
// nor UPSTREAM_API_KEY echoed in an upstream's answer end up in the journal or a recording.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { send } from '../hardening/wire.js';

const SECRET = 'sk-upstream-secret-5c1e';

let upstream: FakeUpstream;
let mock: TestServer;
let recordDir: string;

beforeAll(async () => {
  upstream = await startFakeUpstream((req, res) => {
    const headers = { 'content-type': 'application/json', 'set-cookie': 'session=upstream-cookie; HttpOnly', 'x-request-id': 'up-1' };
    if (req.body.includes('bad key')) {
      // As some upstreams do: the error repeats the key it was sent.
      const key = String(req.headers.authorization).replace('Bearer ', '');
      res.writeHead(401, headers).end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
      return;
    }
    res.writeHead(200, headers).end(
      JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'From upstream.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }),
    );
  });
  recordDir = mkdtempSync(join(tmpdir(), 'mgm-key-'));
  mock = await startTestServer({ upstream: upstream.url, record: recordDir, upstreamKey: SECRET, adminOrigin: 'http://app.test:3000' });
});
afterAll(async () => {
  await mock.close();
  await upstream.close();
});

/** A chat request as a page at `origin` sends it (raw: a browser's fetch sets Origin itself). */
function chatFrom(origin: string | undefined, content: string, path = '/v1/chat/completions'): Promise<{ status: number; source: string; body: string }> {
  const { port } = new URL(mock.url);
  const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, headers: { authorization: 'Bearer sk-dummy', 'content-type': 'application/json', ...(origin ? { origin } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, source: String(res.headers['x-mock-source']), body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function journal(): Promise<Array<Record<string, any>>> {
  return ((await (await mock.admin('/requests')).json()) as { requests: Array<Record<string, any>> }).requests;
}

describe('who may spend the upstream', () => {
  it('forwards requests with no Origin, a loopback one or an --admin-origin one', async () => {
    for (const origin of [undefined, 'http://localhost:5173', 'http://127.0.0.1:8080', 'http://app.test:3000']) {
      const answer = await chatFrom(origin, `hello from ${origin}`);
      expect(answer.source, String(origin)).toBe('upstream');
    }
  });

  it('answers a page of another site as without an upstream, never forwarding it, and the journal says why', async () => {
    const before = upstream.received.length;
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null']) {
      const answer = await chatFrom(origin, `spend it, ${origin}`);
      expect(answer.status).toBe(200);
      expect(answer.source).toBe('generated');
    }
    expect(upstream.received.length).toBe(before);
    const refused = (await journal()).filter((entry) => entry.upstream_refused);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.upstream_refused).toMatch(/https:\/\/evil\.example.*--admin-origin/);
  });
});

describe('paths', () => {
  it('a path parameter that decodes to a dot segment is a 400, never forwarded', async () => {
    const before = upstream.received.length;
    // Raw: an SDK's URL parser would resolve the dots before sending.
    for (const id of ['%2e%2e', '%2E%2e', '.%2E', '%2e', '..', '..%2f..%2fadmin', '..%5Cx', 'a%2F..%2F..']) {
      const answer = await send(mock.url, 'GET', `/v1/videos/${id}`, { authorization: 'Bearer sk-dummy' });
      expect(answer.status, id).toBe(400);
      expect(JSON.parse(answer.text).error.param, id).toBe('id');
    }
    const gemini = await send(mock.url, 'POST', '/v1beta/models/%2e%2e%2f%2e%2e%2fv1%2ffiles:generateContent', { 'x-goog-api-key': 'k', 'content-type': 'application/json' }, '{}');
    expect(gemini.status).toBe(400);
    expect(upstream.received.length).toBe(before);
  });
});

describe('secrets', () => {
  it('keeps the upstream key echoed in an error and its cookies out of the journal and the recording', async () => {
    const openai = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'sk-dummy', maxRetries: 0 });
    const error = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'a bad key' }] }).catch((caught: unknown) => caught);
    // The client gets the upstream's answer as it was: it is the developer's own key.
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).status).toBe(401);
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'a good one' }] });
    await expect.poll(() => readdirSync(recordDir).filter((name) => name.endsWith('.yaml')).length).toBeGreaterThanOrEqual(2);

    const entries = JSON.stringify(await journal());
    expect(entries).toContain('Incorrect API key provided: [redacted].');
    expect(entries).toContain('up-1');
    expect(entries).not.toContain(SECRET);
    expect(entries).not.toContain('upstream-cookie');
    const recorded = readdirSync(recordDir).filter((name) => name.endsWith('.yaml')).map((name) => readFileSync(join(recordDir, name), 'utf8')).join('\n');
    expect(recorded).toContain('[redacted]');
    expect(recorded).not.toContain(SECRET);
    expect(recorded).not.toContain('upstream-cookie');
  });
});
