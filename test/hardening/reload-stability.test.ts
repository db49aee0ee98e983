// Reloads never take a half-written file: 200 in-place rewrites (truncate, write a part, pause as a
// large write does, write the rest) lose no request, nor do 100 saves that remove the file and write
// it anew, and health shows no error after them. A watched directory that was unreadable for a
// while is watched again once it can be read, and health clears its error.
import { once } from 'node:events';
import { renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTLE_MS } from '../../src/config/settle.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: OpenAI;

// Many small fixtures before the one the requests need: a file cut anywhere still parses, without it.
const filler = Array.from({ length: 60 }, (_, i) => `  - name: filler-${i}\n    match: { contains: "zz-${i}-zz" }\n    reply: { text: "filler ${i}" }\n`).join('');
const version = (n: number) => `chat:\n${filler}  - name: target\n    match: { contains: ping }\n    reply: { text: "pong" }\n# rewrite ${n}\n`;

/**
 * Truncates (or removes and creates), writes up to the fixture the requests need (a prefix that
 * parses), pauses, writes the rest. Posts the longest time the file was torn, from before it was
 * opened to after its last byte was written, as this thread measured it.
 */
const WRITER = `
const { closeSync, openSync, rmSync, writeSync } = require('node:fs');
const { parentPort, workerData: { file, texts, pauseMs, remove } } = require('node:worker_threads');
const pause = new Int32Array(new SharedArrayBuffer(4));
let longestTornMs = 0;
for (const text of texts) {
  const cut = text.indexOf('  - name: target');
  const started = performance.now();
  if (remove) rmSync(file);
  const fd = openSync(file, 'w');
  writeSync(fd, text.slice(0, cut));
  Atomics.wait(pause, 0, 0, pauseMs);
  writeSync(fd, text.slice(cut));
  closeSync(fd);
  longestTornMs = Math.max(longestTornMs, performance.now() - started);
}
parentPort.postMessage(longestTornMs);
`;

/**
 * One burst of rewrites while a client asks for the fixture: the answers, and the longest time the
 * writer left the file torn. No watcher can tell a writer stalled past the settle time (a loaded
 * machine can stop its thread that long) from one that finished, so such a burst is run again.
 */
const ping = async () => (await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }] })).choices[0]!.message.content ?? '';

const ATTEMPTS = 8;
/** A burst takes 5-10 s on a loaded machine, and may be run again. */
const BURSTS_MS = ATTEMPTS * 20_000;

async function burst(rewrites: number, remove: boolean): Promise<string[]> {
  const file = join(server.fixturesDir, 'big.yaml');
  for (let attempt = 1; ; attempt++) {
    // Each burst starts from the whole file in force: a burst run again follows one whose stalled
    // writer may have had a torn version loaded, which stays until a whole one has settled.
    await expect.poll(ping, { timeout: 10_000 }).toBe('pong');
    // The writer runs on its own thread, as an editor or a generator would, so its pause mid-file
    // is what it says whatever the server's event loop is doing.
    const texts = Array.from({ length: rewrites }, (_, n) => version(n + 1));
    const writer = new Worker(WRITER, { eval: true, workerData: { file, texts, pauseMs: 30, remove } });
    const torn = once(writer, 'message') as Promise<[number]>;
    let writing = true;
    const written = once(writer, 'exit').then(() => (writing = false));
    const answers: string[] = [];
    const asker = (async () => {
      while (writing) {
        answers.push(await ping());
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await Promise.all([written, asker]);
    const [longestTornMs] = await torn;
    if (longestTornMs < SETTLE_MS) return answers;
    if (attempt === ATTEMPTS) throw new Error(`the writer stalled past the settle time in ${attempt} bursts in a row (last: ${Math.round(longestTornMs)} ms)`);
    console.info(`reload-stability: the writer left the file torn ${Math.round(longestTornMs)} ms, past the settle time; burst ${attempt} is run again`);
  }
}

interface Health {
  status: string;
  reloads: number;
  errors: Array<{ file: string; message: string }>;
}
const health = async () => (await (await server.admin('/health')).json()) as Health;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'big.yaml': version(0) } });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

describe('in-place rewrites', () => {
  it('200 in-place rewrites lose no request', async () => {
    const answers = await burst(200, false);
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((text) => text !== 'pong')).toEqual([]);
    const before = server.reloads();
    writeFileSync(join(server.fixturesDir, 'big.yaml'), version(201));
    await server.waitForReload(before);
    expect((await health()).errors).toEqual([]);
  }, BURSTS_MS);

  it('100 saves that remove the file and write it anew lose no request', async () => {
    const answers = await burst(100, true);
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.filter((text) => text !== 'pong')).toEqual([]);
    await expect.poll(async () => (await health()).errors, { timeout: 5000 }).toEqual([]);
  }, BURSTS_MS);
});

describe('a directory that was unreadable for a while', () => {
  it('is watched again once it can be read, and health clears its error', async () => {
    // Tests run as root, whom chmod does not stop: the directory is made unreadable by putting a
    // link that loops (ELOOP) in its place, which fails the watcher and the loader the same way.
    const dir = server.fixturesDir;
    const away = `${dir}-away`;
    let before = server.reloads();
    renameSync(dir, away);
    symlinkSync(dir, dir);
    await server.waitForReload(before);
    await expect.poll(async () => (await health()).errors.map((e) => e.message).join(' '), { timeout: 5000 }).toMatch(/cannot be read/);
    // The last good configuration still answers.
    const held = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }] });
    expect(held.choices[0]!.message.content).toBe('pong');

    before = server.reloads();
    rmSync(dir);
    renameSync(away, dir);
    await server.waitForReload(before);
    await expect.poll(async () => (await health()).errors, { timeout: 5000 }).toEqual([]);
    before = server.reloads();
    writeFileSync(join(dir, 'later.yaml'), 'chat:\n  - name: later\n    match: { contains: again }\n    reply: { text: "watched again" }\n');
    await server.waitForReload(before);
    const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'again' }] });
    expect(reply.choices[0]!.message.content).toBe('watched again');
  });
});
