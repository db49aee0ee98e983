// GET /__admin/events on its own: what each event carries, in the order things happened, for one
// client or a hundred, a client that leaves, one that stops reading, and the admin token as
// `?token=`.
import { once } from 'node:events';
import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROGRESS_MS, START_MESSAGE_MAX } from '../../src/server/in-flight.js';
import { BACKLOG_MAX_CHARS, EventHub } from '../../src/state/events.js';
import { listen } from '../helpers/events.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const openai = (session: string) =>
  new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
const ask = (session: string, content: string) => openai(session).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });

beforeAll(async () => {
  server = await startTestServer({ clock: 'manual', scenarioFiles: shippedScenarioFiles() });
});
afterAll(() => server.close());

describe('GET /__admin/events', () => {
  it('is an event stream of journal entries, in the order they were journaled, as GET /requests gives them', async () => {
    const client = await listen(`${server.url}/__admin/events`);
    expect(client.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const sent: string[] = [];
    for (let i = 0; i < 12; i++) sent.push((await ask('order', `question ${i}`).withResponse()).response.headers.get('x-request-id')!);
    const events = await client.until('request', 12);
    expect(events.map((event) => event.data.id)).toEqual(sent);
    const journal = ((await (await server.admin('/requests?session=order')).json()) as { requests: unknown[] }).requests;
    expect(events.map((event) => event.data)).toEqual(journal);
    await client.close();
  });

  it('announces reloads (a failed one names its file), scenario switches and video task changes', async () => {
    const client = await listen(`${server.url}/__admin/events`);
    await server.writeFixture('bad.yaml', 'chat:\n  - name: bad\n    reply: { txet: "typo" }\n');
    const [failed] = await client.until('reload', 1);
    expect(failed!.data).toMatchObject({ reloads: server.reloads(), status: 'degraded', errors: [{ file: expect.stringContaining('bad.yaml'), line: 3 }] });
    await server.removeFixture('bad.yaml');
    const reloads = await client.until('reload', 2);
    expect(reloads[1]!.data).toEqual({ reloads: server.reloads(), status: 'ok', errors: [] });

    const json = { 'content-type': 'application/json' };
    await server.admin('/scenario?session=s1', { method: 'PUT', headers: json, body: '{"name":"rate_limit"}' });
    await server.admin('/scenario', { method: 'DELETE' });
    expect((await client.until('scenario', 2)).map((event) => event.data)).toEqual([
      { session: 's1', name: 'rate_limit' },
      { session: null, name: null },
    ]);

    const video = await openai('tasks').videos.create({ model: 'sora-2', prompt: 'a lighthouse at dusk' });
    await server.advanceClock(5000);
    await server.advanceClock(60_000);
    const tasks = await client.until('task', 3);
    expect(tasks.map((event) => [event.data.id, event.data.session, event.data.status])).toEqual([
      [video.id, 'tasks', 'queued'],
      [video.id, 'tasks', 'in_progress'],
      [video.id, 'tasks', 'completed'],
    ]);
    await client.close();
  });

  it('announces each change of a batch\'s status as a task event', async () => {
    const client = await listen(`${server.url}/__admin/events`);
    const line = JSON.stringify({ custom_id: 'one', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] } });
    const file = await openai('batch-events').files.create({ file: await toFile(Buffer.from(line), 'one.jsonl'), purpose: 'batch' });
    const batch = await openai('batch-events').batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    for (const step of [1000, 2050, 1000]) await server.advanceClock(step);
    const tasks = (await client.until('task', 4)).filter((event) => event.data.id === batch.id);
    expect(tasks.map((event) => [event.data.kind, event.data.session, event.data.status])).toEqual([
      ['batch', 'batch-events', 'validating'],
      ['batch', 'batch-events', 'in_progress'],
      ['batch', 'batch-events', 'finalizing'],
      ['batch', 'batch-events', 'completed'],
    ]);
    await client.close();
  });

  it('announces a request as it starts, with its model and the start of its message, and its paced stream as it goes, at most every PROGRESS_MS, before its entry', async () => {
    const text = 'x'.repeat(300);
    await server.writeFixture('paced.yaml', `chat:\n  - name: paced\n    match: { contains: "pace me" }\n    reply: { text: "${text}" }\n    stream: { first_chunk_ms: 10, chunk_ms: 4, chunk_by: char }\n`);
    const client = await listen(`${server.url}/__admin/events`);
    const started = performance.now();
    const said = `pace me ${'and keep going '.repeat(30)}`;
    const stream = await openai('paced').chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: said }] }, { headers: { 'x-mock-latency': 'realistic' } });
    for await (const _chunk of stream);
    const elapsedMs = performance.now() - started;
    const [entry] = await client.until('request', 1);
    const mine = client.received.filter((event) => event.data.id === entry!.data.id);
    expect(mine[0]).toEqual({ event: 'start', data: { id: entry!.data.id, time: entry!.data.time, session: 'paced', method: 'POST', path: '/v1/chat/completions', model: 'gpt-4o-mini', message: said.slice(0, START_MESSAGE_MAX) } });
    expect(mine.at(-1)!.event).toBe('request');
    const progress = mine.filter((event) => event.event === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThanOrEqual(Math.ceil(elapsedMs / PROGRESS_MS));
    for (const event of progress) expect(event.data).toEqual({ id: entry!.data.id, sent: expect.any(Number), total: 300 });
    expect(progress.map((event) => event.data.sent)).toEqual([...progress.map((event) => event.data.sent)].sort((a, b) => a - b));
    await client.close();
    await server.removeFixture('paced.yaml');
  });

  it('serves a hundred clients the same events, and keeps serving those left when some go', async () => {
    const clients = await Promise.all(Array.from({ length: 100 }, () => listen(`${server.url}/__admin/events`)));
    await ask('many', 'one');
    await ask('many', 'two');
    for (const client of clients) expect((await client.until('request', 2)).map((event) => event.data.body.messages[0].content)).toEqual(['one', 'two']);
    await Promise.all(clients.slice(0, 50).map((client) => client.close()));
    await ask('many', 'three');
    for (const client of clients.slice(50)) expect((await client.until('request', 3))[2]!.data.body.messages[0].content).toBe('three');
    await Promise.all(clients.slice(50).map((client) => client.close()));
    expect((await ask('many', 'after all left')).choices[0]!.message.content).toBeTruthy();
  });
});

describe('the connection of GET /__admin/events', () => {
  /** The `connection` header the event stream is answered with, asked by a keep-alive client with `headers`. */
  function connectionHeader(headers: Record<string, string>): Promise<string | undefined> {
    const agent = new Agent({ keepAlive: true });
    return new Promise<string | undefined>((resolve, reject) => {
      const asking = get(`${server.url}/__admin/events`, { headers, agent }, (response) => resolve(response.headers.connection));
      asking.on('error', reject);
    }).finally(() => agent.destroy());
  }

  it('is said to close when the client asked so, and to stay open otherwise', async () => {
    expect(await connectionHeader({ connection: 'close' })).toBe('close');
    expect(await connectionHeader({})).toBe('keep-alive');
  });
});

describe('a client of GET /__admin/events that stops reading', () => {
  it('is dropped once about 8 MB of events wait for it, not after 1,000 events of any size', async () => {
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    socket.write('GET /__admin/events HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    await once(socket, 'data');
    socket.pause();
    // 40 requests of 1 MB: far past the backlog and what the two sockets' kernel buffers take.
    const prose = 'The quick brown fox jumps over the lazy dog, then naps in the sun. '.repeat(15_000);
    const REQUESTS = 40;
    for (let i = 0; i < REQUESTS; i++) await ask('stalled-watcher', `${i} ${prose}`);
    // Reading again: a dropped client gets what was on its way and then the end, not every event.
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.resume();
    const events = () => received.split('event: request').length - 1;
    // Ends when the mock drops the client, or when every event arrived (it was never dropped).
    const allArrived = new Promise<void>((resolve) => socket.on('data', () => events() >= REQUESTS && resolve()));
    await Promise.race([once(socket, 'close'), allArrived]);
    expect(socket.destroyed || socket.readableEnded).toBe(true);
    expect(events()).toBeLessThan(REQUESTS);
    socket.destroy();
    // Forty 1 MB chat requests are seconds of work on a loaded two-core machine: a deadline, not a goal.
  }, 90_000);
});

describe('GET /__admin/events with --admin-token', () => {
  it('takes the token as ?token= or as a bearer token, and answers 401 without it', async () => {
    const guarded = await startTestServer({ adminToken: 'secret' });
    try {
      expect((await fetch(`${guarded.url}/__admin/events`)).status).toBe(401);
      expect((await fetch(`${guarded.url}/__admin/events?token=wrong`)).status).toBe(401);
      for (const client of [await listen(`${guarded.url}/__admin/events?token=secret`), await listen(`${guarded.url}/__admin/events`, { authorization: 'Bearer secret' })]) {
        expect(client.response.status).toBe(200);
        await client.close();
      }
    } finally {
      await guarded.close();
    }
  });
});

describe('the event hub', () => {
  it('forgets a watcher that leaves', () => {
    const hub = new EventHub();
    const watcher = hub.subscribe();
    expect(hub.watchers).toBe(1);
    watcher.close();
    expect(hub.watchers).toBe(0);
  });

  it('drops a watcher that falls behind by 8 MB of events, and only that one', async () => {
    const hub = new EventHub();
    const slow = hub.subscribe();
    const fast = hub.subscribe();
    const taken: string[] = [];
    const reading = (async () => {
      for await (const event of fast) taken.push(event.json);
    })();
    // Large events, as journal entries of large requests are: few of them fill the backlog.
    const large = 'x'.repeat(512 * 1024);
    const count = BACKLOG_MAX_CHARS / large.length + 1;
    for (let i = 0; i < count; i++) {
      hub.publish('request', `${i} ${large}`);
      await new Promise(setImmediate);
    }
    await slow.ended;
    expect(slow.overflowed).toBe(true);
    expect(hub.watchers).toBe(1);
    fast.close();
    await reading;
    expect(taken).toHaveLength(count);
  });
});
