// Files and batches through the official openai SDK on a manual mock clock, stepped through
// POST /__admin/clock: every state of a batch, its output and error files, fixtures, scenarios
// and sessions as each line meets them. No test here sleeps.
import OpenAI, { NotFoundError, toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { batchFile, chatLines, freshDay, journal, jsonl, type BatchRequest } from './helpers.js';

const START = '2030-01-01T00:00:00Z';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    clock: START,
    fixtureFiles: {
      'chat.yaml': 'chat:\n  - name: ping\n    match: { contains: "ping" }\n    reply: { text: "pong" }\n',
      'batches.yaml': [
        'batches:',
        '  - name: nightly',
        '    match: { endpoint: /v1/chat/completions, metadata: { job: nightly } }',
        '    timing: { validating_ms: 100, in_progress_ms: 1000, finalizing_ms: 100 }',
        '  - name: slow',
        '    match: { metadata: { job: slow } }',
        '    timing: { in_progress_ms: 90000000 }',
        '',
      ].join('\n'),
    },
    scenarioFiles: {
      'batch.yaml': 'scenarios:\n  - name: second_limited\n    match: { style: chat-completions }\n    steps: [ { pass: true, times: 1 }, { error: rate_limit, times: 1 }, pass ]\n',
    },
  });
});
afterAll(() => server.close());
// Each test starts on a whole second, a day after the last, so times read as offsets of created_at.
beforeEach(() => freshDay(server));

function clientFor(session: string): OpenAI {
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
}

async function upload(client: OpenAI, requests: BatchRequest[], url?: string) {
  return client.files.create({ file: await toFile(Buffer.from(batchFile(requests, url)), 'requests.jsonl'), purpose: 'batch' });
}

async function startBatch(client: OpenAI, requests: BatchRequest[], metadata?: Record<string, string>) {
  const file = await upload(client, requests);
  return client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h', ...(metadata && { metadata }) });
}

const advance = (ms: number) => server.advanceClock(ms);

describe('files', () => {
  it('uploads, retrieves, lists newest first, downloads and deletes, in the vendor shapes', async () => {
    const client = clientFor('files');
    const text = batchFile(chatLines(2));
    const first = await client.files.create({ file: await toFile(Buffer.from(text), 'two.jsonl'), purpose: 'batch' });
    expect(first).toMatchObject({ object: 'file', purpose: 'batch', filename: 'two.jsonl', bytes: Buffer.byteLength(text), status: 'processed' });
    expect(first.id).toMatch(/^file-/);
    const second = await client.files.create({ file: await toFile(Buffer.from('notes'), 'notes.txt'), purpose: 'user_data' });
    expect(await client.files.retrieve(first.id)).toEqual(first);
    expect(await (await client.files.content(first.id)).text()).toBe(text);

    const all = await client.files.list();
    expect(all.data.map((file) => file.id)).toEqual([second.id, first.id]);
    expect((await client.files.list({ order: 'asc' })).data.map((file) => file.id)).toEqual([first.id, second.id]);
    expect((await client.files.list({ purpose: 'batch' })).data.map((file) => file.id)).toEqual([first.id]);
    const page = await client.files.list({ limit: 1 });
    expect(page.data.map((file) => file.id)).toEqual([second.id]);
    expect(page.hasNextPage()).toBe(true);
    expect((await page.getNextPage()).data.map((file) => file.id)).toEqual([first.id]);

    expect(await client.files.delete(second.id)).toEqual({ id: second.id, object: 'file', deleted: true });
    await expect(client.files.retrieve(second.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.files.list()).data).toHaveLength(1);
  });

  it('takes every purpose the vendor lists', async () => {
    const client = clientFor('purposes');
    for (const purpose of ['assistants', 'fine-tune', 'vision', 'user_data', 'evals'] as const) {
      expect((await client.files.create({ file: await toFile(Buffer.from('{}'), 'x.json'), purpose })).purpose).toBe(purpose);
    }
  });
});

describe('a batch on the mock clock', () => {
  it('validates, runs its lines in order as the clock moves, finalizes and completes with an output file in input order', async () => {
    const client = clientFor('lifecycle');
    const requests = chatLines(4);
    const created = await startBatch(client, requests, { run: '1' });
    const t0 = created.created_at;
    expect(created).toMatchObject({
      object: 'batch',
      status: 'validating',
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      expires_at: created.created_at + 24 * 3600,
      in_progress_at: null,
      completed_at: null,
      output_file_id: null,
      error_file_id: null,
      errors: null,
      metadata: { run: '1' },
      request_counts: { total: 0, completed: 0, failed: 0 },
    });
    expect(created.id).toMatch(/^batch_/);
    // Default timing: 1 s validating, 2 s + 50 ms a line running (2.2 s: a line every 550 ms), 1 s finalizing.
    await advance(1000);
    expect(await client.batches.retrieve(created.id)).toMatchObject({ status: 'in_progress', in_progress_at: t0 + 1, request_counts: { total: 4, completed: 0 } });
    await advance(1100);
    expect((await client.batches.retrieve(created.id)).request_counts).toEqual({ total: 4, completed: 2, failed: 0 });
    await advance(1100);
    expect(await client.batches.retrieve(created.id)).toMatchObject({ status: 'finalizing', finalizing_at: t0 + 3, request_counts: { completed: 4 } });
    await advance(1000);
    const done = await client.batches.retrieve(created.id);
    expect(done).toMatchObject({ status: 'completed', completed_at: t0 + 4, error_file_id: null, request_counts: { total: 4, completed: 4, failed: 0 } });

    const output = jsonl(await (await client.files.content(done.output_file_id!)).text());
    expect(output.map((line) => line.custom_id)).toEqual(requests.map((request) => request.custom_id));
    for (const line of output) {
      expect(line.id).toMatch(/^batch_req_/);
      expect(line.error).toBeNull();
      expect(line.response.status_code).toBe(200);
      expect(line.response.request_id).toMatch(/^req_/);
      expect(line.response.body).toMatchObject({ object: 'chat.completion', model: 'gpt-4o-mini' });
    }
    expect(await client.files.retrieve(done.output_file_id!)).toMatchObject({ purpose: 'batch_output', created_at: t0 + 4 });
  });

  it('answers a line exactly as the same request sent alone, and journals it with its batch', async () => {
    const client = clientFor('same-answer');
    const requests: BatchRequest[] = [
      { custom_id: 'fixture', body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }] } },
      { custom_id: 'generated', body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Tell me about tides.' }], seed: 3 } },
    ];
    const batch = await startBatch(client, requests);
    await advance(10_000);
    const done = await client.batches.retrieve(batch.id);
    const [fixture, generated] = jsonl(await (await client.files.content(done.output_file_id!)).text());
    expect(fixture!.response.body.choices[0].message.content).toBe('pong');
    const alone = await clientFor('same-answer-alone').chat.completions.create(requests[1]!.body as never);
    expect(generated!.response.body.choices[0].message.content).toBe((alone as OpenAI.ChatCompletion).choices[0]!.message.content);

    const lines = (await journal(server, 'same-answer')).filter((entry) => entry.batch !== null);
    expect(lines.map((entry) => [entry.path, entry.batch, entry.fixture, entry.status])).toEqual([
      ['/v1/chat/completions', batch.id, 'ping', 200],
      ['/v1/chat/completions', batch.id, null, 200],
    ]);
    expect(lines[0]!.body).toEqual(requests[0]!.body);
    // Counted like any request: the usage oracle sees batch lines too.
    expect(lines[1]!.usage).toMatchObject({ input_tokens: generated!.response.body.usage.prompt_tokens, output_tokens: generated!.response.body.usage.completion_tokens });
    expect((await journal(server, 'same-answer')).filter((entry) => entry.path.startsWith('/v1/batches')).every((entry) => entry.batch === null)).toBe(true);
  });

  it('puts a line a session scenario answers 429 in the error file and counts it failed', async () => {
    const client = clientFor('limited');
    const put = await server.admin('/scenario?session=limited', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'second_limited' }) });
    expect(put.status).toBe(200);
    const batch = await startBatch(client, chatLines(3));
    await advance(10_000);
    const done = await client.batches.retrieve(batch.id);
    expect(done).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 2, failed: 1 } });
    const output = jsonl(await (await client.files.content(done.output_file_id!)).text());
    expect(output.map((line) => line.custom_id)).toEqual(['line-1', 'line-3']);
    const [limited] = jsonl(await (await client.files.content(done.error_file_id!)).text());
    expect(limited).toMatchObject({ custom_id: 'line-2', error: null, response: { status_code: 429, body: { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' } } } });
    const entry = (await journal(server, 'limited')).find((row) => row.status === 429);
    expect(entry).toMatchObject({ batch: batch.id, scenario: 'second_limited' });
  });

  it('runs an embeddings batch: each line an embedding of the asked dimensions, as the same request alone', async () => {
    const client = clientFor('embeddings');
    const asked = [
      { model: 'text-embedding-3-small', input: ['A parcel arrived torn.'], dimensions: 256, encoding_format: 'float' },
      { model: 'text-embedding-3-large', input: ['refund policy', 'delivery times'], dimensions: 64, encoding_format: 'float' },
    ] satisfies OpenAI.EmbeddingCreateParams[];
    const file = await upload(client, [{ custom_id: 'short', body: asked[0]! }, { custom_id: 'pair', body: asked[1]! }], '/v1/embeddings');
    const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/embeddings', completion_window: '24h' });
    await advance(10_000);
    const done = await client.batches.retrieve(batch.id);
    expect(done).toMatchObject({ status: 'completed', request_counts: { total: 2, completed: 2, failed: 0 } });
    const output = jsonl(await (await client.files.content(done.output_file_id!)).text());
    expect(output.map((line) => line.custom_id)).toEqual(['short', 'pair']);
    for (const [index, line] of output.entries()) {
      const request = asked[index]!;
      const body = line.response.body as OpenAI.CreateEmbeddingResponse;
      expect(line.response.status_code).toBe(200);
      expect(body).toMatchObject({ object: 'list', model: request.model });
      expect(body.data.map((item) => item.embedding.length)).toEqual(request.input.map(() => request.dimensions));
      const alone = await clientFor('embeddings-alone').embeddings.create(request);
      expect(body.data.map((item) => item.embedding)).toEqual(alone.data.map((item) => item.embedding));
      expect(body.usage).toEqual(alone.usage);
    }
  });

  it('fails at validation when a line names another url, naming the line', async () => {
    const client = clientFor('invalid');
    const requests = chatLines(3);
    const file = await client.files.create({
      file: await toFile(Buffer.from(batchFile([requests[0]!, { ...requests[1]!, url: '/v1/responses' }, requests[2]!])), 'mixed.jsonl'),
      purpose: 'batch',
    });
    const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(batch.status).toBe('validating');
    await advance(1000);
    const failed = await client.batches.retrieve(batch.id);
    expect(failed).toMatchObject({ status: 'failed', failed_at: batch.created_at + 1, in_progress_at: null, output_file_id: null, request_counts: { total: 0, completed: 0, failed: 0 } });
    expect(failed.errors?.data).toEqual([{ code: 'invalid_url', line: 2, param: 'url', message: expect.stringContaining('line 2') }]);
    expect((await journal(server, 'invalid')).some((entry) => entry.batch !== null)).toBe(false);
  });

  it('cancels: cancelling for the finalizing time, then cancelled, its unanswered lines left out', async () => {
    const client = clientFor('cancel');
    const batch = await startBatch(client, chatLines(4));
    await advance(1000 + 1100);
    const cancelling = await client.batches.cancel(batch.id);
    expect(cancelling).toMatchObject({ status: 'cancelling', cancelling_at: batch.created_at + 2, request_counts: { completed: 2 } });
    await advance(999);
    expect((await client.batches.retrieve(batch.id)).status).toBe('cancelling');
    await advance(1);
    const cancelled = await client.batches.retrieve(batch.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelled_at: batch.created_at + 3, request_counts: { total: 4, completed: 2, failed: 0 } });
    const output = jsonl(await (await client.files.content(cancelled.output_file_id!)).text());
    expect(output.map((line) => line.custom_id)).toEqual(['line-1', 'line-2']);
    const again = await client.batches.cancel(batch.id).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(OpenAI.ConflictError);
  });

  it('takes a batches: fixture timing matched on endpoint and metadata', async () => {
    const client = clientFor('timing');
    const batch = await startBatch(client, chatLines(2), { job: 'nightly', owner: 'ci' });
    await advance(100);
    expect((await client.batches.retrieve(batch.id)).status).toBe('in_progress');
    await advance(1000);
    expect((await client.batches.retrieve(batch.id)).status).toBe('finalizing');
    await advance(100);
    expect((await client.batches.retrieve(batch.id)).status).toBe('completed');
    const other = await startBatch(client, chatLines(2), { job: 'daily' });
    await advance(100);
    expect((await client.batches.retrieve(other.id)).status).toBe('validating');
  });

  it('expires when the clock passes expires_at first: answered lines in the output, the rest batch_expired', async () => {
    const client = clientFor('expiry');
    const batch = await startBatch(client, chatLines(2), { job: 'slow' });
    // 25 h running: the first line (due at 12.5 h) is answered, the second never.
    await advance(13 * 3600 * 1000);
    expect(await client.batches.retrieve(batch.id)).toMatchObject({ status: 'in_progress', request_counts: { completed: 1 } });
    await advance(11 * 3600 * 1000);
    const expired = await client.batches.retrieve(batch.id);
    expect(expired).toMatchObject({ status: 'expired', expired_at: batch.created_at + 24 * 3600, completed_at: null });
    expect(expired.expired_at).toBe(expired.expires_at);
    expect(jsonl(await (await client.files.content(expired.output_file_id!)).text()).map((line) => line.custom_id)).toEqual(['line-1']);
    const [late] = jsonl(await (await client.files.content(expired.error_file_id!)).text());
    expect(late).toMatchObject({ custom_id: 'line-2', response: null, error: { code: 'batch_expired' } });
  });

  it('lists batches newest first with limit and after', async () => {
    const client = clientFor('listing');
    const first = await startBatch(client, chatLines(1));
    const second = await startBatch(client, chatLines(1));
    const third = await startBatch(client, chatLines(1));
    expect((await client.batches.list()).data.map((batch) => batch.id)).toEqual([third.id, second.id, first.id]);
    const page = await client.batches.list({ limit: 2 });
    expect(page.data.map((batch) => batch.id)).toEqual([third.id, second.id]);
    expect((await page.getNextPage()).data.map((batch) => batch.id)).toEqual([first.id]);
  });

  it('keeps files and batches in their session', async () => {
    const owner = clientFor('owner');
    const stranger = clientFor('stranger');
    const batch = await startBatch(owner, chatLines(1));
    await expect(stranger.batches.retrieve(batch.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(stranger.files.retrieve(batch.input_file_id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await stranger.batches.list()).data).toEqual([]);
    expect((await stranger.files.list()).data).toEqual([]);
    await advance(10_000);
    const done = await owner.batches.retrieve(batch.id);
    expect(done.status).toBe('completed');
    await expect(stranger.files.content(done.output_file_id!)).rejects.toBeInstanceOf(NotFoundError);
    expect((await journal(server, 'stranger')).some((entry) => entry.batch !== null)).toBe(false);
  });

  it('moves with POST /__admin/clock and shows beside the video tasks', async () => {
    const client = clientFor('tasks');
    const batch = await startBatch(client, chatLines(2));
    await advance(1000);
    const tasks = (await (await server.admin('/tasks?session=tasks')).json()) as { tasks: Array<Record<string, unknown>> };
    expect(tasks.tasks).toEqual([expect.objectContaining({ kind: 'batch', id: batch.id, session: 'tasks', status: 'in_progress', model: '/v1/chat/completions' })]);
  });
});
