// Size and shape limits: bodies over the limit get 413 (announced or chunked, JSON or multipart,
// in each route's envelope); deeply nested and huge JSON neither crash nor hold the event loop
// while other clients wait; the journal keeps no body it could not serve back.
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOURNAL_BODY_MAX } from '../../src/state/journal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectClientError, expectEnvelope, formFields, keepAlive, multipart, send, type RawAnswer, type Route } from './wire.js';
import { ROUTES } from './sampled-routes.js';

const LIMIT = 64 * 1024;
let small: TestServer;
let large: TestServer;

beforeAll(async () => {
  [small, large] = await Promise.all([startTestServer({ bodyLimit: LIMIT }), startTestServer({})]);
});
afterAll(() => Promise.all([small.close(), large.close()]));

const KEY = { authorization: 'Bearer sk-test' };
const chat = (content: string, extra: Record<string, unknown> = {}) => JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], ...extra });

/** A body sent in chunks without a Content-Length; `gate` holds the last chunk back until it resolves. */
function chunked(parts: Array<string | Buffer>, gate: Promise<void> = Promise.resolve()): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream({
    async pull(controller) {
      if (next === parts.length - 1) await gate;
      if (next >= parts.length) return controller.close();
      controller.enqueue(Buffer.from(parts[next++]!));
    },
  });
}

async function answerOf(response: Response): Promise<RawAnswer> {
  return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
}

function post(server: TestServer, route: Route, body: RequestInit['body'], contentType: string, extra: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}${route.path}`, {
    method: route.method,
    headers: { ...KEY, 'content-type': contentType, ...route.headers },
    body,
    ...extra,
  });
}

describe('bodies over the limit', () => {
  const bodyRoutes = ROUTES.filter((route) => route.body !== 'none');

  it('get 413 in each route envelope, announced or chunked', async () => {
    const big = JSON.stringify({ padding: 'x'.repeat(LIMIT) });
    for (const route of bodyRoutes) {
      const announced = await answerOf(await post(small, route, big, 'application/json'));
      expect(announced.status, `${route.path} announced`).toBe(413);
      expectEnvelope(route.envelope, announced, `${route.path} announced`);
      const streamed = await answerOf(await post(small, route, chunked([big.slice(0, 1000), big.slice(1000)]), 'application/json', { duplex: 'half' } as RequestInit));
      expect(streamed.status, `${route.path} chunked`).toBe(413);
      expectEnvelope(route.envelope, streamed, `${route.path} chunked`);
    }
  });

  it('get 413 for a multipart file or fields over the limit, announced or chunked', async () => {
    for (const route of ROUTES.filter((r) => r.body === 'multipart')) {
      const fields = formFields(route.valid ?? {});
      const bigFile = multipart(fields, [['image', 'big.png', Buffer.alloc(LIMIT + 1, 7)]]);
      const bigField = multipart([...fields, ['padding', 'y'.repeat(LIMIT + 1)]]);
      for (const [label, form] of [['file', bigFile], ['field', bigField]] as const) {
        const announced = await answerOf(await post(small, route, form.body, form.contentType));
        expect(announced.status, `${route.path} ${label} announced`).toBe(413);
        expectEnvelope(route.envelope, announced, `${route.path} ${label}`);
        const parts = [form.body.subarray(0, 500), form.body.subarray(500)];
        const streamed = await answerOf(await post(small, route, chunked(parts), form.contentType, { duplex: 'half' } as RequestInit));
        expect(streamed.status, `${route.path} ${label} chunked`).toBe(413);
        expectEnvelope(route.envelope, streamed, `${route.path} ${label} chunked`);
      }
    }
  });

  it('are read to the end after the 413, so the keep-alive connection serves the next request', async () => {
    const { hostname, port } = new URL(small.url);
    for (let i = 0; i < 3; i++) {
      // Far more than the socket buffers hold: the client finishes sending only if the server reads on.
      const body = chat('x'.repeat(16 * 1024 * 1024));
      const finished = new Promise<number>((resolve, reject) => {
        const req = request(
          { host: hostname, port, method: 'POST', path: '/v1/chat/completions', agent: keepAlive, headers: { ...KEY, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
          (res) => {
            res.resume();
            req.on('finish', () => resolve(res.statusCode!));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(await finished).toBe(413);
      const served = await send(small.url, 'POST', '/v1/chat/completions', { ...KEY, 'content-type': 'application/json' }, chat('hi'));
      expect(served.status).toBe(200);
    }
  });
});

describe('deep and huge JSON', () => {
  // How long the loop is held meanwhile is the bench's (hostile doors): here, what is answered.
  it('refuses 100,000 levels of nesting at once, while other requests are answered', async () => {
    const deep = chat('hi', { metadata: '__DEEP__' }).replace('"__DEEP__"', '['.repeat(100_000) + ']'.repeat(100_000));
    const [refused, other] = await Promise.all([
      send(large.url, 'POST', '/v1/chat/completions', { ...KEY, 'content-type': 'application/json' }, deep),
      send(large.url, 'GET', '/v1/models', KEY),
    ]);
    expectClientError('openai', refused, 'deep body');
    expect(JSON.parse(refused.text).error.message).toContain('nests deeper than 128 levels');
    expect(other.status).toBe(200);
  });

  it('answers tool arguments nested too deep to serialise again as text', async () => {
    const deepArguments = '['.repeat(5000) + ']'.repeat(5000);
    const body = JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: deepArguments } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
    });
    const answer = await send(large.url, 'POST', '/v1/chat/completions', { ...KEY, 'content-type': 'application/json' }, body);
    expect(answer.status, answer.text.slice(0, 200)).toBe(200);
  });

  // The worst cases for the tokenizer: 8 MB of base64 once took minutes to count (its merge cache
  // went quadratic), 4 MB of one letter as long (BPE merges are quadratic in a word's length).
  // The bench's hostile doors hold the loop's longest stall meanwhile to its goal.
  for (const [label, content] of [
    ['base64', () => randomBytes(6 * 1024 * 1024).toString('base64')],
    ['one letter', () => 'z'.repeat(4 * 1024 * 1024)],
  ] as const) {
    it(`answers a huge body of ${label}, others answered meanwhile`, async () => {
      const body = chat(content());
      const [huge, other] = await Promise.all([
        send(large.url, 'POST', '/v1/chat/completions', { ...KEY, 'content-type': 'application/json' }, body),
        send(large.url, 'POST', '/v1/chat/completions', { ...KEY, 'content-type': 'application/json' }, chat('hi')),
      ]);
      expect(huge.status).toBe(200);
      expect(JSON.parse(huge.text).usage.prompt_tokens).toBeGreaterThan(500_000);
      expect(other.status).toBe(200);
    });
  }

  it('serves other clients while a large body is still arriving', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const body = chat('z'.repeat(4 * 1024 * 1024));
    const parts = [body.slice(0, 1024 * 1024), body.slice(1024 * 1024, 3 * 1024 * 1024), body.slice(3 * 1024 * 1024)];
    const upload = fetch(`${large.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: chunked(parts, gate),
      duplex: 'half',
    } as RequestInit);
    const meanwhile = await send(large.url, 'POST', '/v1/chat/completions', { ...KEY, 'content-type': 'application/json' }, chat('hi'));
    expect(meanwhile.status).toBe(200);
    release();
    expect((await upload).status).toBe(200);
  });

  it('keeps a journal it can serve: no deep body, no body over the entry limit', async () => {
    const session = { 'x-mock-session': 'journal-shapes' };
    const deep = chat('hi', { metadata: '__DEEP__' }).replace('"__DEEP__"', '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000));
    expect((await send(large.url, 'POST', '/v1/chat/completions', { ...KEY, ...session, 'content-type': 'application/json' }, deep)).status).toBe(400);
    const bigText = 'w'.repeat(JOURNAL_BODY_MAX + 10);
    expect((await send(large.url, 'POST', '/v1/chat/completions', { ...KEY, ...session, 'content-type': 'application/json' }, chat(bigText))).status).toBe(200);
    expect((await send(large.url, 'POST', '/v1/chat/completions', { ...KEY, ...session, 'content-type': 'application/json' }, chat('small'))).status).toBe(200);
    const journal = await large.admin('/requests?session=journal-shapes');
    expect(journal.status).toBe(200);
    const entries = ((await journal.json()) as { requests: Array<{ status: number; body: unknown }> }).requests;
    expect(entries.map((entry) => entry.status)).toEqual([400, 200, 200]);
    expect(entries[0]!.body).toBeNull();
    expect(entries[1]!.body).toMatch(/^\[a body of about \d+ characters, not kept/);
    expect(entries[2]!.body).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'small' }] });
  });
});
