// With --upstream, a model this mock does not list is the upstream's only for a request that may
// spend it (SPEC 12). A page of another Origin, or a batch such a page created, gets the door's
// 404 model_not_found, as without an upstream (it was a 500 for the embeddings and moderations
// doors), and the upstream hears nothing of it.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchFile, journal } from '../batches/helpers.js';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ELSEWHERE = 'https://elsewhere.example';

let upstream: FakeUpstream;
let mock: TestServer;
beforeAll(async () => {
  upstream = await startFakeUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.6, 0.8] }], model: 'upstream-embedder', usage: { prompt_tokens: 1, total_tokens: 1 } }));
  });
  mock = await startTestServer({ upstream: upstream.url, clock: 'manual' });
});
afterAll(async () => {
  await mock.close();
  await upstream.close();
});

function post(path: string, body: unknown, origin?: string): Promise<Response> {
  return fetch(`${mock.url}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json', ...(origin && { origin }) },
    body: JSON.stringify(body),
  });
}

describe('an unknown model from a page of another Origin, with --upstream', () => {
  it.each([
    ['/v1/embeddings', { model: 'upstream-embedder', input: 'hello' }],
    ['/v1/moderations', { model: 'upstream-moderator', input: 'hello' }],
  ])('POST %s answers 404 model_not_found, not 500, and forwards nothing', async (path, body) => {
    const before = upstream.received.length;
    const response = await post(path, body, ELSEWHERE);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('model_not_found');
    expect(upstream.received.length).toBe(before);
  });

  it('is still the upstream\'s for a request that may spend it', async () => {
    const response = await post('/v1/embeddings', { model: 'upstream-embedder', input: 'hello' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mock-source')).toBe('upstream');
  });
});

describe('a batch line naming an unknown model, with --upstream', () => {
  async function lineStatus(session: string, origin?: string): Promise<number> {
    const client = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
    const text = batchFile([{ custom_id: 'one', body: { model: 'upstream-embedder', input: 'hello' } }], '/v1/embeddings');
    const file = await client.files.create({ file: await toFile(Buffer.from(text), 'one.jsonl'), purpose: 'batch' });
    const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/embeddings', completion_window: '24h' }, { headers: origin ? { origin } : {} });
    await mock.advanceClock(60_000);
    await client.batches.retrieve(batch.id);
    return (await journal(mock, session)).find((row) => row.batch === batch.id)!.status;
  }

  it('is refused 404 when a page of another Origin made the batch, forwarded when the developer did', async () => {
    const before = upstream.received.length;
    expect(await lineStatus('batch-elsewhere', ELSEWHERE)).toBe(404);
    expect(upstream.received.length).toBe(before);
    expect(await lineStatus('batch-own')).toBe(200);
    expect(upstream.received.length).toBe(before + 1);
  });
});
