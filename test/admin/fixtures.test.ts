// GET /__admin/fixtures lists file and run-time fixtures; POST adds chat fixtures for one session,
// checked by the fixtures schema.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
  - name: file-greeting
    match: { contains: "hello" }
    reply: { text: "Hello from the file." }
images:
  - name: logo
    match: { contains: "logo" }
    reply: { generate: true }
`;

let server: TestServer;

const post = (body: unknown, session?: string) =>
  server.admin(`/fixtures${session ? `?session=${session}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function reply(session: string, content: string): Promise<string | null> {
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
  const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });
  return completion.choices[0]!.message.content;
}

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'main.yaml': FIXTURES } });
});
afterAll(() => server.close());

describe('run-time fixtures', () => {
  it('adds chat fixtures for one session only; they win over file fixtures of the same priority', async () => {
    const added = await post(
      {
        chat: [
          { name: 'session-greeting', match: { contains: 'hello' }, reply: { text: 'Hello from session a.' } },
          { match: { contains: 'bye' }, reply: { text: 'Bye, {{model}}.' }, priority: 5 },
        ],
      },
      'a',
    );
    expect(added.status).toBe(201);
    expect(await added.json()).toEqual({
      fixtures: [
        { name: 'session-greeting', file: 'POST /__admin/fixtures', section: 'chat', priority: 0, session: 'a' },
        { name: 'POST /__admin/fixtures#1', file: 'POST /__admin/fixtures', section: 'chat', priority: 5, session: 'a' },
      ],
    });
    expect(await reply('a', 'hello')).toBe('Hello from session a.');
    expect(await reply('a', 'bye now')).toBe('Bye, gpt-4o-mini.');
    expect(await reply('b', 'hello')).toBe('Hello from the file.');
  });

  it('lists file fixtures of every section and run-time ones with their session', async () => {
    const listing = (await (await server.admin('/fixtures')).json()) as { fixtures: Array<Record<string, unknown>> };
    expect(listing.fixtures).toEqual(
      expect.arrayContaining([
        { name: 'file-greeting', file: expect.stringContaining('main.yaml'), section: 'chat', priority: 0, session: null },
        { name: 'logo', file: expect.stringContaining('main.yaml'), section: 'images', priority: 0, session: null },
        expect.objectContaining({ name: 'session-greeting', session: 'a' }),
      ]),
    );
    const other = (await (await server.admin('/fixtures?session=b')).json()) as { fixtures: Array<{ session: string | null }> };
    expect(other.fixtures.every((f) => f.session === null)).toBe(true);
  });

  it('refuses a document the fixtures schema refuses, naming every problem', async () => {
    const response = await post({ chat: [{ match: { contians: 'x' }, reply: { text: 'x' } }, { reply: { finish_reason: 'done' } }] });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { message: string; param: string; type: string } };
    expect(error.type).toBe('invalid_request_error');
    expect(error.message).toContain('chat[0].match');
    expect(error.message).toContain('contians');
    expect(error.message).toContain('chat[1].reply.finish_reason');
    expect(error.param).toBe('chat[0].match');
  });

  it('refuses a bad pattern with its path, and sections other than chat', async () => {
    const pattern = await post({ chat: [{ match: { pattern: '(' }, reply: { text: 'x' } }] });
    expect(pattern.status).toBe(400);
    expect(((await pattern.json()) as { error: { param: string } }).error.param).toBe('chat[0].match.pattern');
    const models = await post({ models: [{ id: 'mine' }] });
    expect(models.status).toBe(400);
    expect(((await models.json()) as { error: { message: string } }).error.message).toContain('models');
  });

  it('refuses an empty body, or one without a chat list, naming chat', async () => {
    const empty = await server.admin('/fixtures', { method: 'POST' });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { param: string } }).error.param).toBe('chat');
    const nothing = await post({});
    expect(nothing.status).toBe(400);
  });

  it('adds to the default session without ?session', async () => {
    expect((await post({ chat: [{ match: { contains: 'ping' }, reply: { text: 'pong' } }] })).status).toBe(201);
    expect(await reply('default', 'ping')).toBe('pong');
  });
});
