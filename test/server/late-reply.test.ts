// A paced stream's reply is made after its headers (exchange/late-stream.ts, server/late-reply.ts):
// its headers go out as soon as the request is decided, alone, however long its first pause; its
// events follow as its reply would have sent them; a client that leaves before the reply, or a
// reset fault, still leaves a journal entry with the reply's usage; and a reply refused only once
// it is made reaches the client as the style's in-stream error.
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MockError } from '../../src/conversation/errors.js';
import { ChunkDeadlines } from '../../src/conversation/latency.js';
import type { StreamEvent } from '../../src/conversation/plan.js';
import type { Steps } from '../../src/conversation/steps.js';
import type { Pacing } from '../../src/conversation/types.js';
import { LateStream, type MadeStream } from '../../src/exchange/late-stream.js';
import { write } from '../../src/server/writer.js';
import type { JournalEntry } from '../../src/state/journal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { contextFor, FakeResponse } from '../helpers/fake-response.js';
import { writerStand, type WriterStand } from '../helpers/writer-stand.js';

const TEXT = 'Your parcel left the depot this morning and should reach you before the end of the week.';
/** Long enough that nothing but the headers can have been sent when the client first reads. */
const FIRST_MS = 1500;

const FIXTURES = `
chat:
  - match: { contains: "parcel" }
    reply: { text: ${JSON.stringify(TEXT)} }
    stream: { first_chunk_ms: ${FIRST_MS}, chunk_ms: 1 }
`;

const REQUEST = JSON.stringify({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Where is my parcel?' }] });

/** A raw client: the bytes of its first read, then (`rest`) all it reads until the server ends. */
function ask(port: number, session: string, scenario = ''): Promise<{ first: string; rest: () => Promise<string>; leave: () => void }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let all = '';
    let closed = false;
    socket.on('data', (bytes) => {
      const first = all === '';
      all += bytes.toString('latin1');
      if (first) resolve({ first: all, rest, leave: () => socket.destroy() });
    });
    const ended = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('close', () => (closed = true));
    const rest = async () => {
      if (!closed) await ended;
      return all;
    };
    socket.once('error', reject);
    const head = `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nauthorization: Bearer k\r\nx-mock-session: ${session}\r\n${scenario && `x-mock-scenario: ${scenario}\r\n`}connection: close\r\ncontent-length: ${Buffer.byteLength(REQUEST)}\r\n\r\n`;
    socket.write(head + REQUEST);
  });
}

/** The content pieces of an SSE body sent in chunks. */
function pieces(body: string): string[] {
  return [...body.matchAll(/^data: (\{.*\})$/gm)].flatMap(([, json]) => (JSON.parse(json!) as { choices: Array<{ delta?: { content?: string } }> }).choices[0]?.delta?.content || []);
}

describe("a paced stream's reply, made after its headers", () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES }, scenarioFiles: { 'reset.yaml': 'scenarios:\n  - name: reset\n    steps:\n      - { fault: reset }\n' } });
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server.close());

  const journaled = async (session: string): Promise<JournalEntry[]> =>
    ((await (await server.admin(`/requests?session=${session}`)).json()) as { requests: JournalEntry[] }).requests;

  it('sends the headers alone at once, however long the first pause, then the whole reply', async () => {
    const client = await ask(port, 'at-once');
    const [head, body] = client.first.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/content-type: text\/event-stream/i);
    // Before, the reply's opening chunk (the role) went in the same write as the headers.
    expect(body).toBe('');
    const all = await client.rest();
    expect(pieces(all).join('')).toBe(TEXT);
    expect(all).toContain('data: [DONE]');
    await vi.waitUntil(async () => (await journaled('at-once')).length > 0, { timeout: 10_000, interval: 20 });
    const [entry] = await journaled('at-once');
    expect(entry!.status).toBe(200);
    expect(entry!.usage?.output_tokens).toBeGreaterThan(0);
  });

  it("journals the reply's usage for a client that leaves before the reply is made", async () => {
    const client = await ask(port, 'left-early');
    client.leave();
    await vi.waitUntil(async () => (await journaled('left-early')).length > 0, { timeout: 10_000, interval: 20 });
    const [entry] = await journaled('left-early');
    expect(entry!.status).toBe(499);
    const [whole] = await journaled('at-once');
    expect(entry!.usage).toEqual(whole!.usage);
  });

  it("journals the reply's usage for a stream a reset fault drops before any byte", async () => {
    // Nothing is read: the connection is dropped before any byte.
    void ask(port, 'reset', 'reset').catch(() => undefined);
    await vi.waitUntil(async () => (await journaled('reset')).length > 0, { timeout: 10_000, interval: 20 });
    const [entry] = await journaled('reset');
    expect(entry!.status).toBe(0);
    const [whole] = await journaled('at-once');
    expect(entry!.usage).toEqual(whole!.usage);
  });
});

describe('a late reply the mock refuses once it makes it', () => {
  const refusal = new MockError('invalid_request', 'Nothing can be made of this.');
  const failed = (error: MockError): StreamEvent[] => [{ data: { error: { message: error.message } } }];
  const plans = {
    '/refused': () =>
      new LateStream(
        { firstChunkMs: 100, chunkMs: 1 },
        // eslint-disable-next-line require-yield
        function* (): Steps<MadeStream> {
          throw refusal;
        },
        failed,
      ),
    '/broken': () =>
      new LateStream(
        { firstChunkMs: 100, chunkMs: 1 },
        // eslint-disable-next-line require-yield
        function* (): Steps<MadeStream> {
          throw new Error('a bug');
        },
        failed,
      ),
  };
  let stand: WriterStand;
  beforeAll(async () => {
    stand = await writerStand((ctx) => write(ctx, plans[ctx.path as keyof typeof plans]()));
  });
  afterAll(() => stand.close());

  const read = (path: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(stand.port, '127.0.0.1');
      let all = '';
      socket.on('data', (bytes) => (all += bytes.toString('latin1')));
      socket.once('close', () => resolve(all));
      socket.once('error', reject);
      socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
    });

  it("reaches the client as the style's in-stream error after the 200 headers", async () => {
    const all = await read('/refused');
    expect(all).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(all).toContain(`data: ${JSON.stringify({ error: { message: refusal.message } })}\n\n`);
    // The stream is closed as any other: its last chunk sent.
    expect(all.endsWith('0\r\n\r\n')).toBe(true);
  });

  it('drops the connection for an error of the mock itself, as any error after the headers', async () => {
    const all = await read('/broken');
    expect(all).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(all.endsWith('0\r\n\r\n')).toBe(false);
  });
});

/** A late reply of an opening event, two paced content events and the end, paced by `pacing`. */
function lateReply(pacing: Pacing): LateStream {
  const events: StreamEvent[] = [{ data: { role: 'assistant' } }, ...['one', 'two'].map((text) => ({ data: { text }, paced: true })), { data: '[DONE]' }];
  return new LateStream(
    pacing,
    // eslint-disable-next-line require-yield
    function* (): Steps<MadeStream> {
      return { plan: { kind: 'stream', status: 200, headers: {}, events, pacing, streamError: () => [] }, notes: {} };
    },
    () => [],
  );
}

/** Fake timers for the tests of a describe: only what the writer uses, so the test runner's own setImmediate stays real. */
function withWriterTimers(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

describe("a late reply's opening events", () => {
  const late = () => lateReply({ firstChunkMs: 1_000, chunkMs: 100 });
  withWriterTimers();

  it('go on a send of their own between the reply\'s making and its first paced event', async () => {
    const res = new FakeResponse();
    const done = write(contextFor(res), late());
    // The reply is made 50 ms before its first event; its opening goes 25 ms before it.
    await vi.advanceTimersByTimeAsync(960);
    expect(res.written.join('')).not.toContain('role');
    await vi.advanceTimersByTimeAsync(20);
    expect(res.written.at(-1)).toContain('"role":"assistant"');
    expect(res.written.join('')).not.toContain('"one"');
    await vi.advanceTimersByTimeAsync(30);
    expect(res.written.at(-1)).toContain('"one"');
    expect(res.written.at(-1)).not.toContain('role');
    await vi.advanceTimersByTimeAsync(200);
    await done;
    expect(res.written.join('')).toContain('[DONE]');
  });
});

describe("a late reply's pauses drawn from a latency profile", () => {
  const pacing: Pacing = {
    firstChunkMs: 400,
    chunkMs: 100,
    drawn: { firstChunk: { p50Ms: 400, p99Ms: 900 }, chunk: { p50Ms: 100, p99Ms: 150 }, seed: [0, 'chatcmpl-late'] },
  };
  withWriterTimers();

  it('sends each content event at its own draw: the first pause the reply was made ahead of, then the gap after it', async () => {
    const deadlines = new ChunkDeadlines(pacing);
    const [first, second] = [deadlines.next(), deadlines.next()];
    expect(second - first).toBeGreaterThan(10);
    const res = new FakeResponse();
    const done = write(contextFor(res), lateReply(pacing));
    const sent = () => res.written.join('');
    await vi.advanceTimersByTimeAsync(Math.floor(first) - 2);
    expect(sent()).not.toContain('"one"');
    await vi.advanceTimersByTimeAsync(Math.ceil(first) + 2 - (Math.floor(first) - 2));
    expect(sent()).toContain('"one"');
    expect(sent()).not.toContain('"two"');
    await vi.advanceTimersByTimeAsync(Math.floor(second) - 2 - (Math.ceil(first) + 2));
    expect(sent()).not.toContain('"two"');
    await vi.advanceTimersByTimeAsync(5);
    expect(sent()).toContain('"two"');
    await vi.advanceTimersByTimeAsync(100);
    await done;
    expect(sent()).toContain('[DONE]');
  });
});
