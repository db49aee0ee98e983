// SIGTERM and SIGINT on the command line: the mock stops accepting, lets an open stream finish for
// --grace-ms, ends one still open after that in its style's own error event, and exits 0; a second
// signal exits at once. A real child process and a paced stream; an abandoned stream is journaled 499.
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built.js';
import { startTestServer } from '../helpers/server.js';
import { serve, tempDir, type ServingMock } from './cli-run.js';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
const fixtures = tempDir({
  'slow.yaml': `chat:
  - name: short
    match: { contains: short }
    reply: { text: "${words(6)}" }
    stream: { first_chunk_ms: 0, chunk_ms: 150, chunk_by: word }
  - name: long
    match: { contains: long }
    reply: { text: "${words(200)}" }
    stream: { first_chunk_ms: 0, chunk_ms: 200, chunk_by: word }
`,
});
const scenarios = tempDir();
const running: ServingMock[] = [];
afterAll(() => {
  for (const mock of running) mock.child.kill('SIGKILL');
});

async function start(...flags: string[]): Promise<ServingMock> {
  const mock = await serve('--fixtures', fixtures, '--scenarios', scenarios, '--latency', 'realistic', '--log-level', 'error', ...flags);
  running.push(mock);
  return mock;
}

/** Opens a chat-completions stream and resolves once its first chunk arrived, with the rest as text. */
async function openStream(url: string, content: string): Promise<{ rest: Promise<string> }> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content }] }),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value);
  const rest = (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return text;
      text += decoder.decode(value);
    }
  })();
  return { rest };
}

const exitOf = async (mock: ServingMock) => (mock.child.exitCode ?? (await once(mock.child, 'exit'))[0]) as number;

beforeAll(ensureBuilt, 300_000);

describe('SIGTERM and SIGINT', () => {
  it('SIGTERM lets an open stream finish, refuses new connections and exits 0', async () => {
    const mock = await start();
    const stream = await openStream(mock.url, 'short please');
    mock.child.kill('SIGTERM');
    const text = await stream.rest;
    expect(text).toContain('word5');
    expect(text).toContain('data: [DONE]');
    await expect(fetch(`${mock.url}/v1/models`, { headers: { authorization: 'Bearer x' } })).rejects.toThrow();
    expect(await exitOf(mock)).toBe(0);
  });

  it('SIGINT ends a stream still open after --grace-ms in the style\'s error event, and exits 0', async () => {
    const mock = await start('--grace-ms', '300');
    const stream = await openStream(mock.url, 'long please');
    mock.child.kill('SIGINT');
    const text = await stream.rest;
    expect(text).not.toContain('word199');
    expect(text).toMatch(/"error":\{"message":"The mock is shutting down/);
    expect(await exitOf(mock)).toBe(0);
  });

  it('SIGTERM exits 0 at once with an idle keep-alive connection open (kept 65 s otherwise)', async () => {
    const mock = await start('--grace-ms', '60000');
    const agent = new Agent({ keepAlive: true });
    const socket = await new Promise<Socket>((resolve, reject) => {
      const req = request(`${mock.url}/v1/models`, { agent, headers: { authorization: 'Bearer x' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(req.socket!));
      });
      req.on('error', reject).end();
    });
    const closed = once(socket, 'close');
    mock.child.kill('SIGTERM');
    expect(await exitOf(mock)).toBe(0);
    await closed;
    agent.destroy();
  });

  it('a second signal exits at once', async () => {
    const mock = await start('--grace-ms', '60000');
    await openStream(mock.url, 'long please');
    mock.child.kill('SIGTERM');
    await expect.poll(() => mock.lines.join('\n')).toMatch(/SIGTERM: no new requests/);
    mock.child.kill('SIGTERM');
    expect(await exitOf(mock)).toBe(143);
  });
});

describe('an abandoned stream', () => {
  it('is journaled 499', async () => {
    const server = await startTestServer({
      latency: 'realistic',
      fixtureFiles: { 'slow.yaml': `chat:\n  - match: { contains: long }\n    reply: { text: "${words(50)}" }\n    stream: { first_chunk_ms: 0, chunk_ms: 100, chunk_by: word }\n` },
    });
    try {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        signal: controller.signal,
        headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'long' }] }),
      });
      await response.body!.getReader().read();
      controller.abort();
      await expect
        .poll(async () => ((await (await server.admin('/requests')).json()) as { requests: Array<{ status: number }> }).requests.map((r) => r.status))
        .toEqual([499]);
    } finally {
      await server.close();
    }
  });
});
