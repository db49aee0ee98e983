// `__proto__`, `constructor` and `prototype` keys, in JSON bodies, multipart fields, form bodies,
// query strings and run-time fixtures, neither pollute Object.prototype (checked in-process: the
// server runs in this test's process) nor change what the mock answers. YAML files: see
// config-files.test.ts.
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectClientError, expectPrototypesClean, multipart, send } from './wire.js';
import { ROUTES } from './sampled-routes.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock: 'manual' });
});
afterAll(() => server.close());
afterEach(() => expectPrototypesClean());

const KEY = { authorization: 'Bearer sk-test' };
const JSON_TYPE = { ...KEY, 'content-type': 'application/json' };
const POLLUTER = { constructor: { prototype: { polluted: 'yes' } }, prototype: { polluted: 'yes' } };

describe('JSON bodies', () => {
  it('refuse a __proto__ key anywhere, at every JSON route, in its envelope', async () => {
    for (const route of ROUTES.filter((r) => r.body === 'json')) {
      for (const body of [
        JSON.stringify(route.valid).replace(/^\{/, '{"__proto__":{"polluted":"yes"},'),
        JSON.stringify({ ...route.valid, extra: [{ deep: '__HERE__' }] }).replace('"__HERE__"', '{"__proto__":{"polluted":"yes"}}'),
        JSON.stringify(route.valid).replace(/^\{/, '{"\\u005f_proto__":{"polluted":"yes"},'),
        // Every underscore escaped: the text holds no `__` at all.
        JSON.stringify(route.valid).replace(/^\{/, '{"\\u005F\\u005fproto\\u005f\\u005F":{"polluted":"yes"},'),
      ]) {
        const answer = await send(server.url, route.method, route.path, { ...JSON_TYPE, ...route.headers }, body);
        expectClientError(route.envelope, answer, `${route.path} ${body.slice(0, 60)}`);
        expect(answer.text).toContain('forbidden prototype property');
      }
    }
  });

  it('treat constructor and prototype keys as data: the same reply as without them', async () => {
    const ask = async (extra: Record<string, unknown>) => {
      const body = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Describe a lighthouse.' }], metadata: extra, ...extra };
      const answer = await send(server.url, 'POST', '/v1/chat/completions', JSON_TYPE, JSON.stringify(body));
      expect(answer.status, answer.text).toBe(200);
      return JSON.parse(answer.text).choices;
    };
    expect(await ask(POLLUTER)).toEqual(await ask({}));
  });
});

describe('multipart fields and files', () => {
  const MEDIA = ROUTES.filter((r) => r.body === 'multipart');

  it('refuse a field named through __proto__, naming it', async () => {
    for (const route of MEDIA) {
      const form = multipart([['prompt', 'a lamp'], ['__proto__[polluted]', 'yes']]);
      const answer = await send(server.url, route.method, route.path, { ...KEY, 'content-type': form.contentType }, form.body);
      expectClientError(route.envelope, answer, route.path);
      // The gateway's task envelope has no `param`: its message names the field.
      if (route.envelope === 'task') expect(JSON.parse(answer.text).message).toContain('__proto__[polluted]');
      else expect(JSON.parse(answer.text).error.param).toBe('__proto__[polluted]');
    }
  });

  it('keep constructor[prototype][...] as a field of its own', async () => {
    const plain = multipart([['model', 'sora-2'], ['prompt', 'a lamp']]);
    const laden = multipart([['model', 'sora-2'], ['prompt', 'a lamp'], ['constructor[prototype][polluted]', 'yes'], ['prototype[polluted]', 'yes']]);
    const answers = [];
    for (const form of [plain, laden]) {
      // The same session from the same start, so the ids match too.
      await send(server.url, 'POST', '/__admin/reset?session=forms', {});
      const answer = await send(server.url, 'POST', '/v1/videos', { ...KEY, 'content-type': form.contentType, 'x-mock-session': 'forms' }, form.body);
      expect(answer.status).toBe(200);
      answers.push(JSON.parse(answer.text));
    }
    expect(answers[1]).toEqual(answers[0]);
  });

  it('survive files sent under __proto__ and constructor', async () => {
    for (const route of MEDIA) {
      const form = multipart([['prompt', 'a lamp']], [['__proto__', 'a.png', Buffer.from('x')], ['constructor', 'b.png', Buffer.from('y')]]);
      const answer = await send(server.url, 'POST', route.path, { ...KEY, 'content-type': form.contentType }, form.body);
      expect(answer.status, answer.text).toBeLessThan(500);
    }
  });
});

describe('form bodies and query strings', () => {
  it('leave prototypes alone', async () => {
    const form = '__proto__[polluted]=yes&constructor[prototype][polluted]=yes&model=gpt-4o-mini&messages[0][role]=user&messages[0][content]=hi';
    const answer = await send(server.url, 'POST', '/v1/chat/completions', { ...KEY, 'content-type': 'application/x-www-form-urlencoded' }, form);
    expect(answer.status).toBeLessThan(500);
    const query = '__proto__[polluted]=yes&constructor[prototype][polluted]=yes&__proto__=x';
    for (const path of ['/v1/videos', '/v1/models', '/v1beta/models', '/__admin/requests', '/__admin/fixtures']) {
      expect((await send(server.url, 'GET', `${path}?${query}`, KEY)).status).toBe(200);
    }
  });
});

describe('run-time fixtures', () => {
  const add = (body: string) => send(server.url, 'POST', '/__admin/fixtures?session=fixtures', { 'content-type': 'application/json' }, body);

  it('refuse __proto__ and keep constructor and prototype as data', async () => {
    const refused = await add('{"chat":[{"reply":{"tool_calls":[{"name":"f","arguments":{"__proto__":{"polluted":"yes"}}}]}}]}');
    expectClientError('openai', refused, 'a run-time fixture with __proto__');
    const added = await add(JSON.stringify({ chat: [{ match: { contains: 'shape' }, reply: { tool_calls: [{ name: 'f', arguments: POLLUTER }] } }] }));
    expect(added.status).toBe(201);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': 'fixtures' } });
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'shape' }] });
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual(POLLUTER);
  });
});
