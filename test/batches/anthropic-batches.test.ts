// Message batches through the official @anthropic-ai/sdk on a manual mock clock: create, retrieve,
// list, cancel, delete and results, every request answered by the messages operation in the
// batch's session, in the messages envelope.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { freshDay, journal } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    clock: '2030-01-01T00:00:00Z',
    fixtureFiles: { 'chat.yaml': 'chat:\n  - name: ping\n    match: { contains: "ping" }\n    reply: { text: "pong" }\n' },
    scenarioFiles: {
      'batch.yaml': 'scenarios:\n  - name: second_limited\n    match: { style: messages }\n    steps: [ { pass: true, times: 1 }, { error: rate_limit, times: 1 }, pass ]\n',
    },
  });
});
afterAll(() => server.close());
beforeEach(() => freshDay(server));

function clientFor(session: string): Anthropic {
  return new Anthropic({ baseURL: server.url, apiKey: 'sk-ant-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
}

function requests(count: number, ask = (n: number) => `question ${n}`): Anthropic.Messages.BatchCreateParams.Request[] {
  return Array.from({ length: count }, (_, i) => ({
    custom_id: `req-${i + 1}`,
    params: { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: ask(i + 1) }] },
  }));
}

async function results(client: Anthropic, id: string): Promise<Anthropic.Messages.MessageBatchIndividualResponse[]> {
  const all: Anthropic.Messages.MessageBatchIndividualResponse[] = [];
  for await (const result of await client.messages.batches.results(id)) all.push(result);
  return all;
}

const advance = (ms: number) => server.advanceClock(ms);

describe('messages.batches', () => {
  it('runs in_progress to ended, counting as the clock moves, with results in input order', async () => {
    const client = clientFor('anthropic-lifecycle');
    const batch = await client.messages.batches.create({ requests: requests(3, (n) => (n === 1 ? 'ping' : `question ${n}`)) });
    expect(batch).toMatchObject({
      type: 'message_batch',
      processing_status: 'in_progress',
      request_counts: { processing: 3, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
      ended_at: null,
      results_url: null,
      cancel_initiated_at: null,
      archived_at: null,
    });
    expect(batch.id).toMatch(/^msgbatch_/);
    expect(Date.parse(batch.expires_at) - Date.parse(batch.created_at)).toBe(24 * 3600 * 1000);
    await expect(client.messages.batches.results(batch.id)).rejects.toThrow(/results_url/);
    // Validating (1 s) counts as in progress; three lines over 2.15 s, then 1 s finalizing.
    await advance(1000 + 720);
    expect((await client.messages.batches.retrieve(batch.id)).request_counts).toMatchObject({ processing: 2, succeeded: 1 });
    await advance(1500);
    expect(await client.messages.batches.retrieve(batch.id)).toMatchObject({ processing_status: 'in_progress', request_counts: { processing: 0, succeeded: 3 } });
    await advance(1000);
    const ended = await client.messages.batches.retrieve(batch.id);
    expect(ended).toMatchObject({ processing_status: 'ended', request_counts: { succeeded: 3 } });
    expect(Date.parse(ended.ended_at!) - Date.parse(ended.created_at)).toBe(4150);
    expect(ended.results_url).toBe(`${server.url}/v1/messages/batches/${batch.id}/results`);

    const lines = await results(client, batch.id);
    expect(lines.map((line) => line.custom_id)).toEqual(['req-1', 'req-2', 'req-3']);
    expect(lines.every((line) => line.result.type === 'succeeded')).toBe(true);
    const first = lines[0]!.result as Anthropic.Messages.MessageBatchSucceededResult;
    expect(first.message).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'pong' }] });
    const journaled = (await journal(server, 'anthropic-lifecycle')).filter((entry) => entry.batch === batch.id);
    expect(journaled.map((entry) => [entry.path, entry.fixture])).toEqual([['/v1/messages', 'ping'], ['/v1/messages', null], ['/v1/messages', null]]);
  });

  it('reports a request a session scenario answers 429 as errored, in the messages envelope', async () => {
    const client = clientFor('anthropic-limited');
    await server.admin('/scenario?session=anthropic-limited', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'second_limited' }) });
    const batch = await client.messages.batches.create({ requests: requests(3) });
    await advance(10_000);
    expect((await client.messages.batches.retrieve(batch.id)).request_counts).toMatchObject({ succeeded: 2, errored: 1 });
    const lines = await results(client, batch.id);
    expect(lines[1]).toMatchObject({ custom_id: 'req-2', result: { type: 'errored', error: { type: 'error', error: { type: 'rate_limit_error' } } } });
  });

  it('cancels: canceling, then ended with the unanswered requests canceled; deletes only once ended', async () => {
    const client = clientFor('anthropic-cancel');
    const batch = await client.messages.batches.create({ requests: requests(4) });
    await expect(client.messages.batches.delete(batch.id)).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await advance(1000 + 1100);
    const canceling = await client.messages.batches.cancel(batch.id);
    expect(canceling).toMatchObject({ processing_status: 'canceling', request_counts: { processing: 2, succeeded: 2 } });
    expect(canceling.cancel_initiated_at).not.toBeNull();
    await advance(1000);
    const ended = await client.messages.batches.retrieve(batch.id);
    expect(ended).toMatchObject({ processing_status: 'ended', request_counts: { processing: 0, succeeded: 2, canceled: 2 } });
    expect((await results(client, batch.id)).map((line) => line.result.type)).toEqual(['succeeded', 'succeeded', 'canceled', 'canceled']);
    await expect(client.messages.batches.cancel(batch.id)).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    expect(await client.messages.batches.delete(batch.id)).toEqual({ id: batch.id, type: 'message_batch_deleted' });
    await expect(client.messages.batches.retrieve(batch.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('expires unanswered requests when the window closes', async () => {
    const client = clientFor('anthropic-expiry');
    await server.writeFixture('slow.yaml', 'batches:\n  - match: { endpoint: /v1/messages }\n    timing: { validating_ms: 90000000 }\n');
    try {
      const batch = await client.messages.batches.create({ requests: requests(2) });
      await advance(24 * 3600 * 1000);
      const ended = await client.messages.batches.retrieve(batch.id);
      expect(ended).toMatchObject({ processing_status: 'ended', request_counts: { expired: 2, succeeded: 0 } });
      expect((await results(client, batch.id)).map((line) => line.result.type)).toEqual(['expired', 'expired']);
    } finally {
      await server.removeFixture('slow.yaml');
    }
  });

  it('lists newest first with limit, after_id and before_id; other sessions see none', async () => {
    const client = clientFor('anthropic-list');
    const made = [];
    for (let i = 0; i < 3; i += 1) made.push((await client.messages.batches.create({ requests: requests(1) })).id);
    const newestFirst = [...made].reverse();
    expect((await client.messages.batches.list()).data.map((batch) => batch.id)).toEqual(newestFirst);
    const page = await client.messages.batches.list({ limit: 2 });
    expect(page.data.map((batch) => batch.id)).toEqual(newestFirst.slice(0, 2));
    expect((await page.getNextPage()).data.map((batch) => batch.id)).toEqual(newestFirst.slice(2));
    expect((await client.messages.batches.list({ before_id: newestFirst[2]! })).data.map((batch) => batch.id)).toEqual(newestFirst.slice(0, 2));
    expect((await clientFor('anthropic-stranger').messages.batches.list()).data).toEqual([]);
    await expect(clientFor('anthropic-stranger').messages.batches.retrieve(made[0]!)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });
});

describe('at the latest time the clock holds', () => {
  const setClock = (set: string) => server.admin('/clock', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ set }) });

  it('creates a batch whose window closes then, instead of a 500', async () => {
    const client = clientFor('anthropic-latest');
    const { now_ms: now } = (await (await server.admin('/clock')).json()) as { now_ms: number };
    await advance(8.64e15 - now);
    try {
      const batch = await client.messages.batches.create({ requests: requests(1) });
      expect(batch.expires_at).toBe('+275760-09-13T00:00:00.000Z');
      expect((await client.messages.batches.retrieve(batch.id)).processing_status).toBe('ended');
    } finally {
      await setClock('2030-01-01T00:00:00Z');
    }
  });
});
