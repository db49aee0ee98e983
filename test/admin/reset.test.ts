// POST /__admin/reset: one session's state, or every session's and the global scenario; the
// loaded files stay.
import OpenAI from 'openai';
import { beforeEach, afterEach, describe, expect, it } from 'vitest';
import { openaiFor } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SCENARIOS = `
scenarios:
  - name: first_fails
    steps:
      - { error: server_error, times: 1 }
      - pass
  - name: always_403
    steps: [ { error: forbidden } ]
`;
const FIXTURES = 'chat:\n  - name: file-hello\n    match: { contains: "hello" }\n    reply: { text: "From the file." }\n';

let server: TestServer;

const client = (session: string, scenario?: string) => openaiFor(server.url, session, scenario);

const say = (session: string, content: string, scenario?: string) =>
  client(session, scenario)
    .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] })
    .then(
      (completion) => completion.choices[0]!.message.content,
      (error: unknown) => (error instanceof OpenAI.APIError ? error.status : error),
    );

const json = (method: string, path: string, body?: unknown) =>
  server.admin(path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

const journalLength = async (session: string) =>
  ((await (await server.admin(`/requests?session=${session}`)).json()) as { requests: unknown[] }).requests.length;

/** Gives a session a journal, a spent counter, a run-time fixture, a stored response and a scenario. */
async function fill(session: string): Promise<string> {
  expect(await say(session, 'hi', 'first_fails')).toBe(500);
  await json('POST', `/fixtures?session=${session}`, { chat: [{ match: { contains: 'ping' }, reply: { text: 'pong' } }] });
  const stored = await client(session).responses.create({ model: 'gpt-4o-mini', input: 'keep me' });
  await json('PUT', `/scenario?session=${session}`, { name: 'always_403' });
  return stored.id;
}

beforeEach(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES }, scenarioFiles: { 'reset.yaml': SCENARIOS } });
});
afterEach(() => server.close());

describe('POST /__admin/reset', () => {
  it('with ?session forgets that session only', async () => {
    const storedA = await fill('a');
    const storedB = await fill('b');
    const reset = await json('POST', '/reset?session=a');
    expect(await reset.json()).toEqual({ reset: 'a' });

    expect(await journalLength('a')).toBe(0);
    expect(await say('a', 'ping')).not.toBe('pong');
    expect(await say('a', 'hi', 'first_fails')).toBe(500);
    expect(await client('a').responses.retrieve(storedA).catch((e: InstanceType<typeof OpenAI.APIError>) => e.status)).toBe(404);

    expect(await journalLength('b')).toBeGreaterThan(0);
    expect(await say('b', 'ping')).toBe(403);
    await json('DELETE', '/scenario?session=b');
    expect(await say('b', 'ping')).toBe('pong');
    expect(await say('b', 'hi', 'first_fails')).not.toBe(500);
    expect((await client('b').responses.retrieve(storedB)).id).toBe(storedB);
  });

  it('without ?session forgets every session and the global scenario; the files stay', async () => {
    await fill('a');
    await json('PUT', '/scenario', { name: 'always_403' });
    expect(await say('elsewhere', 'hello')).toBe(403);
    expect(await (await json('POST', '/reset')).json()).toEqual({ reset: 'all' });

    expect(await journalLength('a')).toBe(0);
    expect(await say('a', 'ping')).not.toBe('pong');
    expect(await say('elsewhere', 'hello')).toBe('From the file.');
    expect(await say('a', 'hi', 'first_fails')).toBe(500);
    const fixtures = ((await (await server.admin('/fixtures')).json()) as { fixtures: Array<{ name: string }> }).fixtures;
    expect(fixtures.map((f) => f.name)).toEqual(['file-hello']);
  });
});
