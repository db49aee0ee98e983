// Rerank over raw HTTP (no official SDK in this project speaks it) and moderations through the
// openai SDK: rerank agrees with the embeddings and moves with their fixtures; moderation flags
// nothing unless a fixture says so, over the thirteen categories of the SDK's type.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiFor } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
embeddings:
  - match: { contains: "opening hours" }
    like: "Our store opens at nine."
moderations:
  - name: threat
    match: { contains: "hurt you" }
    flag: [violence, harassment/threatening]
`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'doors.yaml': FIXTURES } });
});
afterAll(() => server.close());

interface Ranked {
  id: string;
  model: string;
  results: Array<{ index: number; relevance_score: number; document?: { text: string } }>;
  usage: { total_tokens: number };
  meta: { billed_units: { search_units: number } };
}

async function rerank(body: unknown, path = '/v1/rerank'): Promise<{ status: number; body: Ranked & { error?: { param: string } } }> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Ranked & { error?: { param: string } } };
}

const documents = ['Berlin is the capital of Germany.', 'Paris is the capital of France.', 'Our store opens at nine.', 'Bananas are yellow.'];

describe('rerank', () => {
  it('sorts documents by the cosine of their text-embedding-3-small vectors, mapped to 0..1', async () => {
    const { status, body } = await rerank({ model: 'rerank-v3.5', query: 'What is the capital of France?', documents, return_documents: true });
    expect(status).toBe(200);
    expect(body.results[0]).toEqual({ index: 1, relevance_score: expect.any(Number), document: { text: documents[1] } });
    const scores = body.results.map((r) => r.relevance_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const score of scores) expect(score >= 0 && score <= 1).toBe(true);
    expect(body.model).toBe('rerank-v3.5');
    expect(body.meta).toEqual({ billed_units: { search_units: 1 } });
    expect(body.usage.total_tokens).toBeGreaterThan(10);
    const client = openaiFor(server.url, 'rerank');
    const vectors = (await client.embeddings.create({ model: 'text-embedding-3-small', input: ['What is the capital of France?', ...documents], encoding_format: 'float' })).data.map((d) => d.embedding);
    const cosines = documents.map((_, i) => vectors[0]!.reduce((sum, v, k) => sum + v * vectors[i + 1]![k]!, 0));
    expect(body.results.map((r) => r.index)).toEqual(cosines.map((c, index) => ({ c, index })).sort((a, b) => b.c - a.c).map((x) => x.index));
  });

  it('refuses documents of more than 300,000 tokens in all, naming documents', async () => {
    const many = Array.from({ length: 100 }, (_, i) => `${i} ${'word '.repeat(3_100)}`);
    const { status, body } = await rerank({ model: 'rerank-v3.5', query: 'words', documents: many });
    expect([status, body.error?.param]).toEqual([400, 'documents']);
  });

  it('takes { text } documents and top_n on /v2/rerank, without documents unless asked', async () => {
    const { body } = await rerank({ model: 'jina-reranker-v2-base-multilingual', query: 'capital of Germany', documents: documents.map((text) => ({ text })), top_n: 2 }, '/v2/rerank');
    expect(body.results).toHaveLength(2);
    expect(body.results[0]).toEqual({ index: 0, relevance_score: expect.any(Number) });
  });

  it('moves a document when an embeddings fixture gives the query another text', async () => {
    const { body } = await rerank({ model: 'rerank-v3.5', query: 'What are your opening hours?', documents });
    expect(body.results[0]!.index).toBe(2);
    expect(body.results[0]!.relevance_score).toBeCloseTo(1, 5);
  });

  it.each([
    ['no query', { model: 'rerank-v3.5', documents }, 400, 'query'],
    ['no documents', { model: 'rerank-v3.5', query: 'q', documents: [] }, 400, 'documents'],
    ['a document of another type', { model: 'rerank-v3.5', query: 'q', documents: ['a', 3] }, 400, 'documents[1]'],
    ['top_n 0', { model: 'rerank-v3.5', query: 'q', documents, top_n: 0 }, 400, 'top_n'],
    ['an embedding model', { model: 'text-embedding-3-small', query: 'q', documents }, 400, 'model'],
    ['an unknown model', { model: 'rerank-v9', query: 'q', documents }, 404, 'model'],
  ])('refuses %s, naming the field', async (_, request, status, param) => {
    const { status: got, body } = await rerank(request);
    expect(got).toBe(status);
    expect(body.error?.param).toBe(param);
  });
});

describe('moderations through the openai SDK', () => {
  const client = () => openaiFor(server.url, 'moderation');

  it('flags nothing by default, over the thirteen categories, with small scores', async () => {
    const answer = await client().moderations.create({ input: ['Hello there', 'A friendly note'] });
    expect(answer.id).toMatch(/^modr-/);
    expect(answer.model).toBe('omni-moderation-latest');
    expect(answer.results).toHaveLength(2);
    const result = answer.results[0]!;
    expect(result.flagged).toBe(false);
    expect(Object.keys(result.categories).sort()).toEqual(
      ['harassment', 'harassment/threatening', 'hate', 'hate/threatening', 'illicit', 'illicit/violent', 'self-harm', 'self-harm/instructions', 'self-harm/intent', 'sexual', 'sexual/minors', 'violence', 'violence/graphic'].sort(),
    );
    for (const score of Object.values(result.category_scores)) expect(score).toBeLessThan(0.01);
    expect(result.category_applied_input_types.violence).toEqual(['text']);
  });

  it('flags the categories of a matching moderations fixture, per input', async () => {
    const answer = await client().moderations.create({ input: ['I will hurt you', 'Have a nice day'] }).withResponse();
    const [threat, nice] = answer.data.results;
    expect(threat!.flagged).toBe(true);
    expect(threat!.categories.violence && threat!.categories['harassment/threatening']).toBe(true);
    expect(threat!.categories.hate).toBe(false);
    expect(threat!.category_scores.violence).toBeGreaterThan(0.9);
    expect(nice!.flagged).toBe(false);
    expect(answer.response.headers.get('x-mock-source')).toBe('fixture:threat');
  });

  it('judges a list of parts as one input, with the image types applied', async () => {
    const answer = await client().moderations.create({ input: [{ type: 'text', text: 'a picture' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] });
    expect(answer.results).toHaveLength(1);
    expect(answer.results[0]!.category_applied_input_types.violence).toEqual(['text', 'image']);
    expect(answer.results[0]!.category_applied_input_types.hate).toEqual(['text']);
  });

  it('refuses images on a text model, another kind of model, and an empty list', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ model: 'text-moderation-latest', input: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }, 400, 'input'],
      [{ model: 'gpt-4o-mini', input: 'x' }, 400, 'model'],
      [{ input: [] }, 400, 'input'],
      [{ model: 'omni-moderation-9', input: 'x' }, 404, 'model'],
    ];
    for (const [body, status, param] of cases) {
      const error = (await client().moderations.create(body as never).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      expect([error.status, error.param]).toEqual([status, param]);
    }
  });

  it('takes at most 2,048 inputs', async () => {
    const error = (await client().moderations.create({ input: Array.from({ length: 2049 }, (_, i) => `note ${i}`) }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect([error.status, error.param, error.message]).toEqual([400, 'input', '400 Invalid value for \'input\': at most 2048 inputs, got 2049.']);
    const most = await client().moderations.create({ input: Array.from({ length: 2048 }, (_, i) => `note ${i}`) });
    expect(most.results).toHaveLength(2048);
  });
});

describe('the catalog', () => {
  it('lists the default ids of the new kinds in /v1/models', async () => {
    const ids = (await openaiFor(server.url, 'models').models.list()).data.map((m) => m.id);
    for (const id of ['text-embedding-3-small', 'text-embedding-3-large', 'text-embedding-ada-002', 'gemini-embedding-001', 'text-embedding-004', 'rerank-v3.5', 'jina-reranker-v2-base-multilingual', 'omni-moderation-latest', 'text-moderation-latest', 'gpt-3.5-turbo-instruct', 'davinci-002']) {
      expect(ids).toContain(id);
    }
  });
});
