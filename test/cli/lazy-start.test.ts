// What a start loads: the built command with the package's own fixtures answers its first request
// without node-forge (the TLS certificates' library) and Node's https, which it loads only to make
// the local CA or at the first TLS connection; and without prom-client, which it loads at the
// first scrape.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { get } from 'node:https';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/built.js';
import { serveWith, tempDir, type ServingMock } from '../hardening/cli-run.js';

const COMMAND = ['--import', join(ROOT, 'test', 'helpers', 'loaded-modules.mjs'), join(ROOT, 'dist', 'cli.js')];
const FORGE = /^loaded file:.*(node-forge|local-ca)/;

const started: ServingMock[] = [];
const data = tempDir();
const kept = process.env.XDG_DATA_HOME;

async function start(): Promise<ServingMock> {
  const mock = await serveWith(COMMAND, '--no-watch', '--latency', 'none');
  started.push(mock);
  await vi.waitUntil(() => mock.lines.some((line) => line.includes(' tls ca ')), { timeout: 60_000, interval: 20 });
  return mock;
}

const forgeLoaded = (mock: ServingMock) => mock.lines.some((line) => FORGE.test(line));
const loaded = (mock: ServingMock, name: RegExp) => mock.lines.some((line) => line.startsWith('loaded file:') && name.test(line));
const httpsLoaded = (mock: ServingMock) => mock.lines.includes('loaded node:https');

beforeAll(async () => {
  await ensureBuilt();
  process.env.XDG_DATA_HOME = data;
}, 300_000);

afterAll(async () => {
  // Assigning undefined would set the text "undefined": later starts would keep their CA in ./undefined.
  if (kept === undefined) delete process.env.XDG_DATA_HOME;
  else process.env.XDG_DATA_HOME = kept;
  await Promise.all(started.map(async ({ child }) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill();
    await once(child, 'exit');
  }));
});

describe('a start', () => {
  it('loads node-forge and https only to make the local CA, and once it is kept only at the first TLS connection', async () => {
    const first = await start();
    // Its stderr (the loaded modules) and stdout (the CA's line) are read apart: either may come first.
    await vi.waitUntil(() => forgeLoaded(first), { timeout: 10_000, interval: 20 });
    first.child.kill();
    await once(first.child, 'exit');

    const mock = await start();
    const client = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    expect(completion.choices[0]!.message.content).toContain('model-gateway-mock');
    expect(forgeLoaded(mock)).toBe(false);
    expect(httpsLoaded(mock)).toBe(false);

    const ca = readFileSync(join(data, 'model-gateway-mock', 'ca.pem'));
    const status = await new Promise<number | undefined>((resolve, reject) => {
      get(`${mock.url.replace('http:', 'https:')}/v1/models`, { ca, headers: { authorization: 'Bearer sk-test' } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      }).on('error', reject);
    });
    expect(status).toBe(200);
    await vi.waitUntil(() => forgeLoaded(mock) && httpsLoaded(mock), { timeout: 10_000, interval: 20 });
  }, 120_000);

  it('loads prom-client at the first scrape, not after listening, and counts what was answered before it', async () => {
    const mock = await start();
    const client = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    // koa-body is the last of what a start loads after listening, a turn at a time.
    await vi.waitUntil(() => loaded(mock, /\/koa-body\//), { timeout: 30_000, interval: 20 });
    expect(loaded(mock, /\/prom-client\//)).toBe(false);
    const scraped = await fetch(`${mock.url}/__admin/metrics`);
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    expect(text).toMatch(/^mock_request_duration_seconds_count\{route="\/v1\/chat\/completions",style="chat-completions"\} 1$/m);
    // Its stderr (the loaded modules) is read apart from the answer: it may come after it.
    await vi.waitUntil(() => loaded(mock, /\/prom-client\//), { timeout: 10_000, interval: 20 });
  }, 120_000);
});
