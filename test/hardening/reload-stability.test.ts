// Reloads never take a half-written file: 200 in-place rewrites (truncate, write a part, pause as a
// large write does, write the rest) lose no request, and health shows no error after them. A watched directory that was unreadable for a
// while is watched again once it can be read, and health clears its error.
import { once } from 'node:events';
import { renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: OpenAI;

// Many small fixtures before the one the requests need: a file cut anywhere still parses, without it.
const filler = Array.from({ length: 60 }, (_, i) => `  - name: filler-${i}\n    match: { contains: "zz-${i}-zz" }\n    reply: { text: "filler ${i}" }\n`).join('');
const version = (n: number) => `chat:\n${filler}  - name: target\n    match: { contains: ping }\n    reply: { text: "pong" }\n# rewrite ${n}\n`;

/** Truncates, writes up to the fixture the requests need (a prefix that parses), pauses, writes the rest. */
const WRITER = `
const { closeSync, openSync, writeSync } = require('node:fs');
const { workerData: { file, texts, pauseMs } } = require('node:worker_threads');
const pause = new Int32Array(new SharedArrayBuffer(4));
for (const text of texts) {
  const cut = text.indexOf('  - name: target');
  const fd = openSync(file, 'w');
  writeSync(fd, text.slice(0, cut));
  Atomics.wait(pause, 0, 0, pauseMs);
  writeSync(fd, text.slice(cut));
  closeSync(fd);
}
`;

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
    const file = join(server.fixturesDir, 'big.yaml');
    // The writer runs on its own thread, as an editor or a generator would, so its pause mid-file
    // is what it says whatever the server's event loop is doing.
    const texts = Array.from({ length: 200 }, (_, n) => version(n + 1));
    const writer = new Worker(WRITER, { eval: true, workerData: { file, texts, pauseMs: 30 } });
    let writing = true;
    const written = once(writer, 'exit').then(() => (writing = false));
    const answers: string[] = [];
    const asker = (async () => {
      while (writing) {
        const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }] });
        answers.push(reply.choices[0]!.message.content ?? '');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await Promise.all([written, asker]);
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((text) => text !== 'pong')).toEqual([]);
    const before = server.reloads();
    writeFileSync(file, version(201));
    await server.waitForReload(before);
    expect((await health()).errors).toEqual([]);
  });
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
