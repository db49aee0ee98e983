// Clients that leave mid-answer, thousands of times: during a paced stream's first pause, between
// chunks, during an unpaced stream, during a `delay` fault and a `timeout` step, in every style.
// Afterwards no timer, socket or listener is left behind and the heap is where it was.
import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { keepAlive, send } from './wire.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const PAUSE = 60_000;
const FIXTURES = `
chat:
  - name: first-pause
    match: { contains: "first-pause" }
    reply: { text: "${'A paced reply that never gets going. '.repeat(20)}" }
    stream: { first_chunk_ms: ${PAUSE} }
  - name: chunk-pause
    match: { contains: "chunk-pause" }
    reply: { text: "${'A paced reply that stops after its first chunk. '.repeat(20)}" }
    stream: { first_chunk_ms: 0, chunk_ms: ${PAUSE} }
`;
const SCENARIOS = `
scenarios:
  - name: hold
    steps: [{ fault: delay, delay_ms: ${PAUSE} }]
  - name: hang
    steps: [{ error: timeout, delay_ms: ${PAUSE} }]
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ journalMax: 5000, fixtureFiles: { 'paced.yaml': FIXTURES }, scenarioFiles: { 'slow.yaml': SCENARIOS } });
});
afterAll(() => server.close());

interface Streamed {
  style: string;
  path: string;
  body: (prompt: string) => unknown;
  headers?: Record<string, string>;
}

const STYLES: Streamed[] = [
  { style: 'chat-completions', path: '/v1/chat/completions', body: (p) => ({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: p }] }) },
  { style: 'responses', path: '/v1/responses', body: (p) => ({ model: 'gpt-4o-mini', stream: true, input: p }) },
  {
    style: 'messages',
    path: '/v1/messages',
    headers: { 'anthropic-version': '2023-06-01' },
    body: (p) => ({ model: 'claude-sonnet-4-5', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: p }] }),
  },
  { style: 'generate-content', path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', body: (p) => ({ contents: [{ role: 'user', parts: [{ text: p }] }] }) },
];

type LeaveAt = 'headers' | 'first-chunk' | 'sent';

/** One request that the client abandons: when the answer's headers arrive, its first bytes, or as soon as it is sent. */
function abandon(style: Streamed, prompt: string, session: string, leaveAt: LeaveAt, extra: Record<string, string> = {}): Promise<void> {
  const { hostname, port } = new URL(server.url);
  const body = JSON.stringify(style.body(prompt));
  return new Promise((resolve) => {
    const req = request(
      {
        host: hostname,
        port,
        method: 'POST',
        path: style.path,
        agent: false,
        headers: { authorization: 'Bearer k', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'x-mock-session': session, ...style.headers, ...extra },
      },
      (res) => {
        if (leaveAt === 'headers') req.destroy();
        else res.once('data', () => req.destroy());
        res.on('error', () => {});
      },
    );
    req.on('error', () => {});
    req.on('close', () => resolve());
    req.end(body, () => {
      // The server reads the request within a few turns of the loop, then waits on the scenario.
      if (leaveAt === 'sent') void turns(20).then(() => req.destroy());
    });
  });
}

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Waits until no timer is left. Every wait of this test is 60 s long, so a wait that outlived its
 * client stays for the whole deadline; a short one (a reload's look at a late watcher event, a
 * closing socket's) ends well within it.
 */
async function noTimerLeft(): Promise<void> {
  await expect.poll(activeTimers, { timeout: 10_000, interval: 20 }).toBe(0);
}

/** An admin call on a connection of its own, closed after it: no idle keep-alive socket (and its timer) stays. */
function admin(method: string, path: string): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path: `/__admin${path}`, agent: false, headers: { connection: 'close' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves once the session's journal holds `count` entries: every abandoned request has finished on the server. */
async function waitForJournal(session: string, count: number): Promise<void> {
  const journaled = async () => (JSON.parse(await admin('GET', `/requests?session=${session}&brief=true&limit=1`)) as { total: number }).total;
  await expect.poll(journaled, { timeout: 15_000, interval: 20 }).toBeGreaterThanOrEqual(count);
}

function listenerTotal(emitter: NodeJS.EventEmitter): number {
  return emitter.eventNames().reduce((sum, name) => sum + emitter.listenerCount(name), 0);
}

async function inBatches(total: number, size: number, one: (i: number) => Promise<void>): Promise<void> {
  for (let start = 0; start < total; start += size) {
    await Promise.all(Array.from({ length: Math.min(size, total - start) }, (_, i) => one(start + i)));
  }
}

/** The process's handles by kind, timers aside. */
function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) if (kind !== 'Timeout') counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** Waits until the process holds the handles it held before, once pooled client sockets are closed and closing handles are gone. */
async function sameResourcesAs(before: Record<string, number>): Promise<void> {
  keepAlive.destroy();
  await expect.poll(resources, { timeout: 10_000, interval: 20 }).toEqual(before);
}

describe('clients that disconnect mid-answer', () => {
  // About 2,800 requests: on a loaded two-core machine they take longer than the default 20 s.
  it('leave no timer, socket, listener or memory behind, thousands of times', async () => {
    const PER_CASE = 160;
    // A first round warms up every code path, so what is measured afterwards is only growth.
    const rounds = async (tag: string, perCase: number) => {
      for (const style of STYLES) {
        await inBatches(perCase, 80, (i) => abandon(style, `first-pause ${i}`, `${tag}-first-${style.style}`, 'headers'));
        await inBatches(perCase, 80, (i) => abandon(style, `chunk-pause ${i}`, `${tag}-chunk-${style.style}`, 'first-chunk'));
        await inBatches(perCase, 80, (i) => abandon(style, `unpaced ${i}`, `${tag}-unpaced-${style.style}`, 'first-chunk', { 'x-mock-latency': 'none' }));
        await inBatches(perCase / 4, 40, (i) => abandon(style, `held ${i}`, `${tag}-hold-${style.style}`, 'sent', { 'x-mock-scenario': 'hold' }));
        await inBatches(perCase / 4, 40, (i) => abandon(style, `hung ${i}`, `${tag}-hang-${style.style}`, 'sent', { 'x-mock-scenario': 'hang' }));
      }
      for (const style of STYLES) {
        for (const [kind, count] of [['first', perCase], ['chunk', perCase], ['unpaced', perCase], ['hold', perCase / 4], ['hang', perCase / 4]] as const) {
          await waitForJournal(`${tag}-${kind}-${style.style}`, count);
        }
      }
    };

    await rounds('warm', 20);
    await admin('POST', '/reset');
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    await noTimerLeft();
    keepAlive.destroy();
    await expect.poll(() => resources().TCPSocketWrap ?? 0, { timeout: 10_000, interval: 20 }).toBe(0);
    const resourcesBefore = resources();
    const processListeners = listenerTotal(process);

    await rounds('measured', PER_CASE);

    // Every request is journaled, so none is still running on the server; none left anything.
    await noTimerLeft();
    await sameResourcesAs(resourcesBefore);
    expect(listenerTotal(process)).toBe(processListeners);
    await admin('POST', '/reset');
    gc();
    const grown = process.memoryUsage().heapUsed - heapBefore;
    // 2,400 abandoned requests: a leak of even 4 KB each would show as 10 MB.
    expect(grown).toBeLessThan(8 * 1024 * 1024);

    // And the server still answers, streams included.
    const answer = await send(server.url, 'POST', '/v1/chat/completions', { authorization: 'Bearer k', 'content-type': 'application/json' }, JSON.stringify(STYLES[0]!.body('hello')));
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('data: [DONE]');
  }, 90_000);
});
