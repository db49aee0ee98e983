// GET and DELETE /__admin/requests: the journal per session, its entry shape, filters, bounds,
// and the near miss of an unmatched chat request.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/state/journal.js';
import { sseEvents } from '../helpers/sse.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
  - name: greeting
    match: { contains: "hello", headers: { x-tone: friendly } }
    reply: { text: "Hi there." }
  - name: claude-weather
    match: { model: "claude-*", contains: "weather" }
    reply: { text: "Sunny." }
  - name: long-story
    match: { contains: "a long story" }
    reply: { text: "${'Once upon a time the mock told a story, word after word, token after token. '.repeat(25).trim()}" }
`;

let server: TestServer;

const openai = (session: string) =>
  new OpenAI({
    baseURL: `${server.url}/v1`,
    apiKey: 'sk-test',
    maxRetries: 0,
    defaultHeaders: { 'x-mock-session': session, 'x-tone': 'friendly' },
  });

async function requests(query = ''): Promise<JournalEntry[]> {
  const response = await server.admin(`/requests${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { requests: JournalEntry[] }).requests;
}

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES }, clock: '2030-01-01T00:00:00Z', journalMax: 3 });
});
afterAll(() => server.close());

describe('the request journal', () => {
  it('records each request with the SPEC shape, naming the fixture used', async () => {
    await openai('shape').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello you' }] });
    const [entry] = await requests('?session=shape');
    expect(entry).toEqual({
      id: expect.stringMatching(/^req_/),
      time: '2030-01-01T00:00:00.000Z',
      session: 'shape',
      method: 'POST',
      path: '/v1/chat/completions',
      style: 'chat-completions',
      model: 'gpt-4o-mini',
      status: 200,
      fixture: 'greeting',
      scenario: null,
      duration_ms: expect.any(Number),
      body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello you' }] },
      near_miss: null,
      source: 'fixture:greeting',
      scenario_step: null,
      fault: null,
      response: {
        status: 200,
        headers: expect.objectContaining({ 'x-mock-source': 'fixture:greeting', 'content-type': 'application/json; charset=utf-8' }),
        body: expect.objectContaining({ object: 'chat.completion', choices: [expect.objectContaining({ message: expect.objectContaining({ content: 'Hi there.' }) })] }),
      },
      upstream: null,
      upstream_refused: null,
      recorded: null,
      usage: { input_tokens: expect.any(Number), cached_input_tokens: 0, output_tokens: expect.any(Number), reasoning_tokens: 0 },
      cost_usd: expect.any(Number),
      batch: null,
      mcp: null,
    });
  });

  it('names the closest fixture and its failed match keys for an unmatched request', async () => {
    // `greeting` misses on two keys (contains, headers), `claude-weather` on one.
    await new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', defaultHeaders: { 'x-mock-session': 'miss' } }).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'weather today?' }] });
    const [entry] = await requests('?session=miss');
    expect(entry!.fixture).toBeNull();
    expect(entry!.near_miss).toEqual({ fixture: 'claude-weather', file: expect.stringContaining('chat.yaml'), failed: ['model'] });
  });

  it("keeps each entry's own near miss, model and path, though entries alike share what repeats", async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', defaultHeaders: { 'x-mock-session': 'alike' } });
    const tools = [{ type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }];
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'weather today?' }] });
    await client.chat.completions.create({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'what now?' }], tools });
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'weather tomorrow?' }] });
    const entries = await requests('?session=alike');
    expect(entries.map((entry) => [entry.near_miss?.fixture, entry.near_miss?.failed])).toEqual([
      ['claude-weather', ['model']],
      ['claude-weather', ['contains']],
      ['claude-weather', ['model']],
    ]);
    expect(entries.map((entry) => [entry.model, entry.path])).toEqual([
      ['gpt-4o-mini', '/v1/chat/completions'],
      ['claude-sonnet-4-5', '/v1/chat/completions'],
      ['gpt-4o-mini', '/v1/chat/completions'],
    ]);
    await server.admin('/requests?session=alike', { method: 'DELETE' });
  });

  it('filters by exact path, style, model and status', async () => {
    const client = openai('filters');
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    await client.chat.completions.create({ model: 'nope', messages: [{ role: 'user', content: 'hello' }] }).catch(() => undefined);
    await client.models.list();
    expect((await requests('?session=filters')).map((e) => e.status)).toEqual([200, 404, 200]);
    expect((await requests('?session=filters&status=404')).map((e) => e.model)).toEqual(['nope']);
    expect((await requests('?session=filters&path=/v1/models')).map((e) => e.method)).toEqual(['GET']);
    expect(await requests('?session=filters&path=/v1/model')).toEqual([]);
    expect((await requests('?session=filters&style=chat-completions&model=gpt-4o-mini')).map((e) => e.status)).toEqual([200]);
  });

  it('keeps only the newest --journal-max entries per session, oldest first', async () => {
    const client = openai('ring');
    for (const word of ['one', 'two', 'three', 'four', 'five']) {
      await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: word }] });
    }
    const bodies = (await requests('?session=ring')).map((e) => (e.body as { messages: Array<{ content: string }> }).messages[0]!.content);
    expect(bodies).toEqual(['three', 'four', 'five']);
  });

  it.each([
    ['/v1/chat/completions', { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hello, say "quoted" things\n' }] }],
    ['/v1/messages', { model: 'claude-sonnet-4-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'the weather, ünïcödé 🌦' }] }],
  ])('journals a stream on %s as the events its client read', async (path, body) => {
    const session = `stream${path.replaceAll('/', '-')}`;
    const answer = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mock-session': session, 'x-tone': 'friendly', 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-test' },
      body: JSON.stringify(body),
    });
    const read = sseEvents(await answer.text());
    expect(read.length).toBeGreaterThan(4);
    const [entry] = await requests(`?session=${session}`);
    const journaled = (entry!.response as { events: Array<{ event: string | null; data: unknown }> }).events;
    expect(journaled).toEqual(read.map((e) => ({ event: e.event ?? null, data: e.data })));
  });

  it('does not journal admin requests or CORS preflights', async () => {
    await fetch(`${server.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST', 'x-mock-session': 'quiet' },
    });
    await server.admin('/health', { headers: { 'x-mock-session': 'quiet' } });
    expect(await requests('?session=quiet')).toEqual([]);
  });

  it('lists every session without ?session, and DELETE clears one session or all', async () => {
    const all = await requests();
    expect(new Set(all.map((e) => e.session))).toEqual(new Set(['shape', 'miss', 'filters', 'ring', 'stream-v1-chat-completions', 'stream-v1-messages']));
    const one = await server.admin('/requests?session=shape', { method: 'DELETE' });
    expect(await one.json()).toEqual({ deleted: 1 });
    expect(await requests('?session=shape')).toEqual([]);
    expect((await requests('?session=miss')).length).toBe(1);
    await server.admin('/requests', { method: 'DELETE' });
    expect(await requests()).toEqual([]);
  });

  it('holds a long stream in the journal as its pieces of text, not as every chunk whole', async () => {
    const journalBytes = async () => ((await (await server.admin('/health')).json()) as { memory: { journal: number } }).memory.journal;
    const before = await journalBytes();
    const answer = await openai('long-stream').chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'tell me a long story' }] });
    let text = '';
    for await (const chunk of answer) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.length).toBeGreaterThan(1_800);
    const [entry] = await requests('?session=long-stream');
    const events = (entry!.response as { events: unknown[] }).events;
    expect(events.length).toBeGreaterThan(300);
    // Every chunk whole would be about 200 bytes of JSON each; kept as pieces, the entry is a few KB.
    expect(await journalBytes() - before).toBeLessThan(JSON.stringify(events).length / 4);
  });

  it('shows each large body the ring keeps as it was sent, its bytes never another request\'s', async () => {
    // Past 64 KB a body's bytes are kept in a buffer used again once its entry leaves the ring.
    const client = openai('large-ring');
    const words = ['one', 'two', 'three', 'four', 'five', 'six'];
    const contents = words.map((word, i) => `${word} ${String.fromCharCode(97 + i).repeat(100_000 + 5_000 * (i % 2))}`);
    for (const content of contents) await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });
    const bodies = (await requests('?session=large-ring')).map((e) => (e.body as { messages: Array<{ content: string }> }).messages[0]!.content);
    expect(bodies).toEqual(contents.slice(-3));
  });
});
