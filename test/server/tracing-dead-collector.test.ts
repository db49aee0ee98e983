// A collector that never answers, or refuses connections: the final flush gives up, `close()`
// resolves with the server no longer listening, and SIGTERM still exits 0.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureBuilt } from '../helpers/built.js';
import { startTestServer } from '../helpers/server.js';

let silent: Server;
let silentUrl: string;
let refusingUrl: string;

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

beforeAll(ensureBuilt, 300_000);
beforeAll(async () => {
  // Takes the spans and never says a word.
  silent = createServer(() => {});
  await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
  silentUrl = urlOf(silent);
  const closed = createServer();
  await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
  refusingUrl = urlOf(closed);
  await new Promise<void>((done) => closed.close(() => done()));
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((done) => silent.close(done));
});

/** One answered request, so a span waits in the exporter's batch. */
async function answerOne(url: string): Promise<void> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
  });
  await response.text();
}

describe('health says how the exporter fares', () => {
  it('ok with its endpoint at start, failing with the error once a batch could not be sent', async () => {
    // The SDK sends a batch every 5 s by default; a shorter delay keeps the test short.
    process.env.OTEL_BSP_SCHEDULE_DELAY = '20';
    const server = await startTestServer({ otlpEndpoint: refusingUrl });
    try {
      const health = async () => ((await (await server.admin('/health')).json()) as { otlp: { endpoint: string; status: string; last_error: string | null } }).otlp;
      expect(await health()).toEqual({ endpoint: refusingUrl, status: 'ok', last_error: null });
      await answerOne(server.url);
      await vi.waitUntil(async () => (await health()).status === 'failing', { timeout: 15_000, interval: 50 });
      expect((await health()).last_error).toMatch(/\S/);
    } finally {
      delete process.env.OTEL_BSP_SCHEDULE_DELAY;
      await server.close();
    }
  });
});

describe('a collector that fails the final flush', () => {
  it.each([
    ['never answers', () => silentUrl],
    ['refuses connections', () => refusingUrl],
  ])('close() resolves and the server stops listening when it %s', async (_how, endpoint) => {
    const server = await startTestServer({ otlpEndpoint: endpoint() });
    await answerOne(server.url);
    await expect(server.close()).resolves.toBeUndefined();
    await expect(fetch(`${server.url}/v1/models`)).rejects.toThrow();
  });

  it('SIGTERM exits 0 while the collector never answers', async () => {
    const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
    const child = spawn(process.execPath, [cli, '--port', '0', '--grace-ms', '0', '--otlp-endpoint', silentUrl, '--no-watch'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const lines = createInterface({ input: child.stdout! });
    let url: string | undefined;
    for await (const line of lines) {
      url = /listening on (\S+)/.exec(line)?.[1];
      if (url) break;
    }
    await answerOne(url!);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
