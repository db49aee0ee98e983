// `POST /v1/embeddings` through the openai SDK and `:embedContent`/`:batchEmbedContents` through
// @google/genai: both encodings give the same numbers, closeness holds over the wire, `dimensions`
// shortens, fixtures pin what a question retrieves, and each mistake is a 4xx naming the field.
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiFor } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
embeddings:
  - name: refund-question
    match: { contains: "money back" }
    like: "Refunds are issued within 30 days of purchase."
  - name: pinned
    match: { model: text-embedding-3-small, contains: "pinned" }
    dimensions: 4
    vector: [0.5, 0.5, 0.5, 0.5, 0.25]
`;

let server: TestServer;
let client: OpenAI;
const genai = (url: string) => new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: url } });

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'doors.yaml': FIXTURES } });
  client = openaiFor(server.url, 'embeddings');
});
afterAll(() => server.close());

const dot = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);
const model = 'text-embedding-3-small';

describe('POST /v1/embeddings through the openai SDK', () => {
  it('answers base64 (the SDK default) and float with the same numbers, of the model size and unit length', async () => {
    const input = ['The cat sat on the mat.', 'The cat sat on the red mat.'];
    const base64 = await client.embeddings.create({ model, input });
    const float = await client.embeddings.create({ model, input, encoding_format: 'float' });
    expect(base64.data.map((d) => d.embedding)).toEqual(float.data.map((d) => d.embedding));
    expect(float.object).toBe('list');
    expect(float.model).toBe(model);
    expect(float.data.map((d) => [d.object, d.index])).toEqual([['embedding', 0], ['embedding', 1]]);
    const [a, b] = float.data.map((d) => d.embedding);
    expect(a).toHaveLength(1536);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    expect(dot(a!, b!)).toBeGreaterThanOrEqual(0.6);
    expect(float.usage).toEqual({ prompt_tokens: 15, total_tokens: 15 });
  });

  it('keeps sentences without a shared word apart, and gives a sentence the same vector alone and in a batch', async () => {
    const batch = await client.embeddings.create({ model, input: ['Where is the nearest train station?', 'My dog enjoys long walks'], encoding_format: 'float' });
    expect(dot(batch.data[0]!.embedding, batch.data[1]!.embedding)).toBeLessThanOrEqual(0.2);
    const alone = await client.embeddings.create({ model, input: 'My dog enjoys long walks', encoding_format: 'float' });
    expect(alone.data[0]!.embedding).toEqual(batch.data[1]!.embedding);
  });

  it('takes token ids, counting them as the usage', async () => {
    const answer = await client.embeddings.create({ model, input: [[9906, 1917], [13225]] });
    expect(answer.data).toHaveLength(2);
    expect(answer.usage.prompt_tokens).toBe(3);
  });

  it('shortens to `dimensions` on text-embedding-3 models, keeping the order of neighbours', async () => {
    const input = ['What is the capital of France?', 'Paris is the capital of France.', 'Bananas are rich in potassium.'];
    const short = await client.embeddings.create({ model: 'text-embedding-3-large', input, dimensions: 256, encoding_format: 'float' });
    const [q, paris, bananas] = short.data.map((d) => d.embedding);
    expect(q).toHaveLength(256);
    expect(Math.hypot(...q!)).toBeCloseTo(1, 5);
    expect(dot(q!, paris!)).toBeGreaterThan(dot(q!, bananas!));
  });

  it('lets an embeddings fixture pin what a question retrieves: like, and vector as given', async () => {
    const question = 'How do I get my money back?';
    const docs = ['Refunds are issued within 30 days of purchase.', 'Our store opens at nine.'];
    const answer = await client.embeddings.create({ model, input: [question, ...docs], encoding_format: 'float' });
    const [q, refund, hours] = answer.data.map((d) => d.embedding);
    expect(q).toEqual(refund);
    expect(dot(q!, refund!)).toBeGreaterThan(dot(q!, hours!));
    const pinned = await client.embeddings.create({ model, input: 'the pinned one', dimensions: 4, encoding_format: 'float' }).withResponse();
    expect(pinned.data.data[0]!.embedding).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(pinned.response.headers.get('x-mock-source')).toBe('fixture:pinned');
    // Asked for more than the vector holds: the text's own vector answers.
    const full = await client.embeddings.create({ model, input: 'the pinned one', encoding_format: 'float' }).withResponse();
    expect(full.data.data[0]!.embedding).toHaveLength(1536);
    expect(full.response.headers.get('x-mock-source')).toBe('generated');
  });

  it('takes 2,048 inputs and refuses 2,049, naming input', async () => {
    const many = Array.from({ length: 2048 }, (_, i) => `input number ${i}`);
    expect((await client.embeddings.create({ model, input: many })).data).toHaveLength(2048);
    const error = await client.embeddings.create({ model, input: [...many, 'one more'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('input');
  });

  it('refuses inputs of more than 300,000 tokens in all, naming input', async () => {
    // 40 inputs of about 8,000 tokens each: each within its own bound, together past the request's.
    const input = Array.from({ length: 40 }, (_, i) => `${i} ${'word '.repeat(7_900)}`);
    const error = await client.embeddings.create({ model, input }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('input');
    expect((error as Error).message).toContain('at most 300000 in all');
  });

  it.each([
    ['dimensions on ada-002', { model: 'text-embedding-ada-002', input: 'x', dimensions: 8 }, 400, 'dimensions'],
    ['dimensions past the model size', { model, input: 'x', dimensions: 1537 }, 400, 'dimensions'],
    ['an empty input of a list', { model, input: ['a', ''] }, 400, 'input[1]'],
    ['an empty list', { model, input: [] }, 400, 'input'],
    ['a chat model', { model: 'gpt-4o-mini', input: 'x' }, 400, 'model'],
    ['an unknown model', { model: 'text-embedding-9', input: 'x' }, 404, 'model'],
    ['a token id outside the vocabulary', { model, input: [[1, 99999999]] }, 400, 'input[0][1]'],
    ['an input over 8,192 tokens', { model, input: ['word '.repeat(9000)] }, 400, 'input[0]'],
  ])('answers %s with a 4xx naming the field', async (_, body, status, param) => {
    const error = await client.embeddings.create(body as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(status);
    expect((error as InstanceType<typeof OpenAI.APIError>).param).toBe(param);
  });

  it('is deterministic across two server starts with the same seed, and differs with another seed', async () => {
    const ask = async (seed: number) => {
      const other = await startTestServer({ seed });
      try {
        return (await openaiFor(other.url, 's').embeddings.create({ model, input: 'The same sentence.' })).data[0]!.embedding;
      } finally {
        await other.close();
      }
    };
    const first = await ask(3);
    expect(await ask(3)).toEqual(first);
    expect(await ask(4)).not.toEqual(first);
  });

  it('takes a rate_limit scenario as a 429 with retry-after, and journals the request', async () => {
    await server.writeScenario('busy.yaml', 'scenarios:\n  - name: busy\n    steps: [ { error: rate_limit, headers: { retry-after: "3" } } ]\n');
    const error = await openaiFor(server.url, 'busy', 'busy').embeddings.create({ model, input: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('3');
    const journal = (await (await server.admin('/requests?session=busy')).json()) as { requests: Array<{ path: string; status: number; style: string; source: string }> };
    expect(journal.requests.map((r) => [r.path, r.status, r.style, r.source])).toEqual([['/v1/embeddings', 429, 'embeddings', 'scenario:busy#0']]);
  });

  it('refuses a vector shorter than the dimensions it must answer, at file:line:col', async () => {
    await server.writeFixture('short.yaml', 'embeddings:\n  - match: { model: text-embedding-3-small }\n    vector: [1, 2]\n');
    const health = (await (await server.admin('/health')).json()) as { errors: Array<{ file: string; line: number; col: number; message: string }> };
    expect(health.errors).toEqual([expect.objectContaining({ line: 3, col: 13, message: expect.stringContaining('1536 dimensions of text-embedding-3-small') })]);
    await server.removeFixture('short.yaml');
  });
});

describe('generate-content embeddings through @google/genai', () => {
  it('embeds one content and a batch, shortened by outputDimensionality, as the /v1/embeddings vectors of the same model', async () => {
    const ai = genai(server.url);
    const one = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: 'What is the meaning of life?' });
    expect(one.embeddings![0]!.values).toHaveLength(3072);
    const openai = await client.embeddings.create({ model: 'gemini-embedding-001', input: 'What is the meaning of life?' });
    expect(one.embeddings![0]!.values).toEqual(openai.data[0]!.embedding);
    const batch = await ai.models.embedContent({
      model: 'text-embedding-004',
      contents: ['The cat sat on the mat.', 'The cat sat on the red mat.'],
      config: { outputDimensionality: 128, taskType: 'SEMANTIC_SIMILARITY' },
    });
    const [a, b] = batch.embeddings!.map((e) => e.values!);
    expect(a).toHaveLength(128);
    expect(dot(a!, b!)).toBeGreaterThanOrEqual(0.6);
  });

  it('answers :embedContent on its own, and refuses mistakes in the generate-content envelope', async () => {
    const post = (action: string, body: unknown) =>
      fetch(`${server.url}/v1beta/models/gemini-embedding-001:${action}`, { method: 'POST', headers: { 'x-goog-api-key': 'k', 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const one = await post('embedContent', { content: { parts: [{ text: 'hello' }] }, output_dimensionality: 3 });
    expect(((await one.json()) as { embedding: { values: number[] } }).embedding.values).toHaveLength(3);
    const titled = await post('embedContent', { content: { parts: [{ text: 'hello' }] }, title: 'A title' });
    expect(titled.status).toBe(400);
    expect(await titled.json()).toEqual({ error: { code: 400, message: expect.stringContaining('title'), status: 'INVALID_ARGUMENT' } });
    const error = await genai(server.url).models.embedContent({ model: 'gemini-embedding-001', contents: 'x', config: { outputDimensionality: 5000 } }).catch((e: unknown) => e);
    expect((error as { status: number }).status).toBe(400);
    const wrongModel = await post('batchEmbedContents', { requests: [{ model: 'models/text-embedding-004', content: { parts: [{ text: 'x' }] } }] });
    expect(((await wrongModel.json()) as { error: { message: string } }).error.message).toContain('requests[0].model');
    const chatModel = await fetch(`${server.url}/v1beta/models/gemini-2.5-flash:embedContent`, { method: 'POST', headers: { 'x-goog-api-key': 'k', 'content-type': 'application/json' }, body: JSON.stringify({ content: { parts: [{ text: 'x' }] } }) });
    expect(chatModel.status).toBe(400);
    expect(((await chatModel.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
  });
});
