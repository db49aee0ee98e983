// x-mock-session: each session has its own scenario counters, journal, stored responses, video
// tasks and active scenario.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiFor } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SCENARIOS = `
scenarios:
  - name: first_fails
    steps:
      - { error: server_error, times: 1 }
      - pass
`;

let server: TestServer;

const client = (session: string, scenario?: string) => openaiFor(server.url, session, scenario);

const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] };
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof OpenAI.APIError ? error.status : error),
  );

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: { 'sessions.yaml': SCENARIOS } });
});
afterAll(() => server.close());

describe('sessions', () => {
  it('keep their own scenario counters', async () => {
    const a = client('counter-a', 'first_fails');
    const b = client('counter-b', 'first_fails');
    expect(await outcome(a.chat.completions.create(ask))).toBe(500);
    expect(await outcome(a.chat.completions.create(ask))).toBe('ok');
    expect(await outcome(b.chat.completions.create(ask))).toBe(500);
    expect(await outcome(client('counter-a', 'first_fails').chat.completions.create(ask))).toBe('ok');
  });

  it('keep their own journal', async () => {
    await client('journal-a').chat.completions.create(ask);
    await client('journal-b').models.list();
    const paths = async (session: string) =>
      ((await (await server.admin(`/requests?session=${session}`)).json()) as { requests: Array<{ path: string; session: string }> }).requests;
    expect(await paths('journal-a')).toEqual([expect.objectContaining({ path: '/v1/chat/completions', session: 'journal-a' })]);
    expect(await paths('journal-b')).toEqual([expect.objectContaining({ path: '/v1/models', session: 'journal-b' })]);
  });

  it('keep their own stored responses', async () => {
    const response = await client('store-a').responses.create({ model: 'gpt-4o-mini', input: 'remember me' });
    expect((await client('store-a').responses.retrieve(response.id)).id).toBe(response.id);
    expect(await outcome(client('store-b').responses.retrieve(response.id))).toBe(404);
  });

  it('keep their own video tasks', async () => {
    const video = await client('tasks-a').videos.create({ model: 'sora-2', prompt: 'a lighthouse at dusk' });
    expect((await client('tasks-a').videos.retrieve(video.id)).id).toBe(video.id);
    expect(await outcome(client('tasks-b').videos.retrieve(video.id))).toBe(404);
    const listed = await client('tasks-b').videos.list();
    expect(listed.data).toEqual([]);
  });

  it('keep their own active scenario', async () => {
    const put = await server.admin('/scenario?session=active-a', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'first_fails' }),
    });
    expect(put.status).toBe(200);
    expect(await outcome(client('active-b').chat.completions.create(ask))).toBe('ok');
    expect(await outcome(client('active-a').chat.completions.create(ask))).toBe(500);
  });
});
