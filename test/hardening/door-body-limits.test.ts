// The doors bounded in tokens (embeddings, rerank) take bodies up to their own limit, far below
// the 50 MB default: a body past it is a 413 in the door's envelope naming the limit, answered
// before it is parsed, and `--body-limit` still caps every door.
import OpenAI, { AzureOpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_BOUNDED_BODY } from '../../src/exchange/model-routes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** `count` inputs of `size` characters each, distinct so that nothing is shared between them. */
const inputs = (count: number, size: number): string[] => Array.from({ length: count }, (_, i) => `${i} `.padEnd(size, 'parcel '));

async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

describe('a door with a body limit of its own', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('refuses an embeddings body over its limit with a 413 naming it, through the OpenAI SDK', async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const error = await refusal(openai.embeddings.create({ model: 'text-embedding-3-small', input: inputs(100, 50_000) }));
    expect(error.status).toBe(413);
    expect(error.message).toContain(String(TOKEN_BOUNDED_BODY));
    // Under the limit, the same door answers.
    const answered = await openai.embeddings.create({ model: 'text-embedding-3-small', input: inputs(2, 1000) });
    expect(answered.data).toHaveLength(2);
  });

  it('refuses an Azure embeddings body over the limit in its envelope', async () => {
    const azure = new AzureOpenAI({ endpoint: server.url, apiKey: 'k', apiVersion: '2024-10-21', deployment: 'text-embedding-3-small', maxRetries: 0 });
    const error = await refusal(azure.embeddings.create({ model: 'text-embedding-3-small', input: inputs(100, 50_000) }));
    expect(error.status).toBe(413);
    expect(error.message).toContain(String(TOKEN_BOUNDED_BODY));
  });

  it('refuses a rerank body over its limit with a 413 in the OpenAI-style envelope', async () => {
    const response = await fetch(`${server.url}/v2/rerank`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rerank-v3.5', query: 'a damaged parcel', documents: inputs(100, 50_000) }),
    });
    expect(response.status).toBe(413);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain(String(TOKEN_BOUNDED_BODY));
  });
});

describe('--body-limit below a door limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ bodyLimit: '1mb' });
  });
  afterAll(() => server.close());

  it('still caps the door', async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const error = await refusal(openai.embeddings.create({ model: 'text-embedding-3-small', input: inputs(30, 50_000) }));
    expect(error.status).toBe(413);
    expect(error.message).toContain(String(1024 * 1024));
  });
});
