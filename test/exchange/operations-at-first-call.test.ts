// The doors a chat hit never goes through load their module at their first request
// (exchange/operations-at-first-call.ts): the first requests of each, two at once while it loads,
// must each get the answer a warm server gives.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const KEY = { authorization: 'Bearer sk-test' };
const post = (path: string, body: unknown): [string, RequestInit] => [path, { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) }];
const get = (path: string, headers: Record<string, string> = {}): [string, RequestInit] => [path, { headers: { ...KEY, ...headers } }];
const form = (fields: Record<string, string>): FormData => {
  const made = new FormData();
  for (const [name, value] of Object.entries(fields)) made.append(name, value);
  return made;
};

/** One request of each module loaded at its first call (the two batch rows share theirs with the table). */
const FIRST_REQUESTS: ReadonlyArray<[string, RequestInit]> = [
  post('/v1/embeddings', { model: 'text-embedding-3-small', input: ['hi', 'there'], dimensions: 8 }),
  post('/v1beta/models/gemini-embedding-001:embedContent', { content: { parts: [{ text: 'hi' }] }, outputDimensionality: 8 }),
  post('/v1/rerank', { model: 'rerank-v3.5', query: 'q', documents: ['a', 'b'] }),
  post('/v1/moderations', { model: 'omni-moderation-latest', input: 'hi' }),
  post('/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'hi', max_tokens: 4 }),
  post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'a lamp', size: '64x64', n: 1 }),
  post('/v1/audio/speech', { model: 'tts-1', voice: 'sage', input: 'one two three', response_format: 'wav' }),
  get('/v1/videos/video_unknown'),
  get('/v1/videos/characters/char_unknown'),
  get('/v1/video/generations/task_unknown'),
  ['/v1/videos/video_unknown/remix', { method: 'POST', headers: KEY, body: form({ prompt: 'again' }) }],
  get('/v1/files'),
  get('/v1/batches'),
  get('/v1/messages/batches', { 'anthropic-version': '2023-06-01' }),
  get('/api/tags'),
];

/** What a client reads of each request, each sent twice at once: status, type, and the body's keys or error code. */
async function answers(server: TestServer): Promise<unknown[]> {
  return Promise.all(
    FIRST_REQUESTS.flatMap(([path, init]) => [init, init]).map(async (init, index) => {
      const response = await fetch(`${server.url}${FIRST_REQUESTS[Math.floor(index / 2)]![0]}`, init);
      const type = response.headers.get('content-type');
      const bytes = Buffer.from(await response.arrayBuffer());
      const body = type?.includes('json') ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>) : undefined;
      const error = body?.error as { code?: string; type?: string } | undefined;
      return { status: response.status, type, keys: body && Object.keys(body).sort(), error: error?.code ?? error?.type ?? body?.code, bytes: body ? undefined : bytes.length };
    }),
  );
}

describe('the doors loaded at their first request', () => {
  it('answer the first requests, two at once, as a warm server answers them', async () => {
    const server = await startTestServer({ latency: 'none', seed: 7 });
    servers.push(server);
    const first = await answers(server);
    const warm = await answers(server);
    expect(first).toEqual(warm);
    expect(first.map((answer) => (answer as { status: number }).status)).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200,
      // No such video, character, task (the task gateway's envelope answers 400) or video to remix.
      404, 404, 404, 404, 400, 400, 404, 404,
      200, 200, 200, 200, 200, 200, 200, 200,
    ]);
  });
});
