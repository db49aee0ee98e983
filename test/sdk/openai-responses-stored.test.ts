// Stored responses through the openai SDK: background runs and their cancel, the input items
// list, input token counting, and retrieve as a replayed stream, on a manual clock.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiFor } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer({ clock: 'manual' });
  client = openaiFor(server.url, 'stored');
});
afterAll(() => server.close());

describe('background responses', () => {
  it('answers queued at once and shows the reply once a second of mock time has passed', async () => {
    const queued = await client.responses.create({ model: 'gpt-4o-mini', input: 'hello in the background', background: true });
    expect(queued.status).toBe('queued');
    expect(queued.background).toBe(true);
    expect(queued.output).toEqual([]);
    expect((await client.responses.retrieve(queued.id)).status).toBe('queued');
    await server.advanceClock(1000);
    const done = await client.responses.retrieve(queued.id);
    expect(done.status).toBe('completed');
    expect(done.completed_at).toBe(queued.created_at + 1);
    expect(done.output_text).not.toBe('');
    const late = await client.responses.cancel(queued.id).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(OpenAI.BadRequestError);
    expect((late as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('response_not_cancellable');
  });

  it('cancels a queued response, which then stays cancelled', async () => {
    const queued = await client.responses.create({ model: 'gpt-4o-mini', input: 'cancel me', background: true });
    const cancelled = await client.responses.cancel(queued.id);
    expect(cancelled.status).toBe('cancelled');
    await server.advanceClock(5000);
    expect((await client.responses.retrieve(queued.id)).status).toBe('cancelled');
  });

  it('refuses to cancel a response that is not a background one (400) or is unknown (404)', async () => {
    const plain = await client.responses.create({ model: 'gpt-4o-mini', input: 'plain' });
    expect(await client.responses.cancel(plain.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.BadRequestError);
    expect(await client.responses.cancel('resp_unknown').catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe('input items', () => {
  it('lists the input items newest first, paged by the SDK', async () => {
    const input = [
      { role: 'developer' as const, content: 'Be brief.' },
      { role: 'user' as const, content: [{ type: 'input_text' as const, text: 'first' }] },
      { role: 'user' as const, content: 'second' },
    ];
    const created = await client.responses.create({ model: 'gpt-4o-mini', input });
    const page = await client.responses.inputItems.list(created.id, { limit: 2 });
    expect(page.data.map((item) => item.type === 'message' && item.content[0])).toEqual([
      { type: 'input_text', text: 'second' },
      { type: 'input_text', text: 'first' },
    ]);
    expect(page.has_more).toBe(true);
    const all = [];
    for await (const item of client.responses.inputItems.list(created.id, { limit: 1, order: 'asc' })) all.push(item);
    expect(all.map((item) => item.type === 'message' && item.role)).toEqual(['developer', 'user', 'user']);
    expect(new Set(all.map((item) => item.id)).size).toBe(3);
  });

  it('answers 404 for an unknown response', async () => {
    expect(await client.responses.inputItems.list('resp_unknown').catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe('input token counting', () => {
  it('counts what a response request would bill as input, with or without a model', async () => {
    const created = await client.responses.create({ model: 'gpt-4o-mini', input: 'count these words please' });
    const counted = await client.responses.inputTokens.count({ model: 'gpt-4o-mini', input: 'count these words please' });
    expect(counted).toEqual({ object: 'response.input_tokens', input_tokens: created.usage!.input_tokens });
    const unnamed = await client.responses.inputTokens.count({ input: 'count these words please' });
    expect(unnamed.input_tokens).toBe(counted.input_tokens);
    const chained = await client.responses.inputTokens.count({ model: 'gpt-4o-mini', input: 'and more', previous_response_id: created.id });
    expect(chained.input_tokens).toBeGreaterThan(counted.input_tokens);
  });

  it('names the field a count request gets wrong', async () => {
    const error = await client.responses.inputTokens.count({ model: 'no-such-model', input: 'hi' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    const missing = await client.responses.inputTokens.count({ model: 'gpt-4o-mini' }).catch((e: unknown) => e);
    expect((missing as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('input');
  });
});

describe('retrieve with stream: true', () => {
  it('replays the stored events, from the one after starting_after', async () => {
    const created = await client.responses.create({ model: 'gpt-4o-mini', input: 'replay me' });
    const types: string[] = [];
    const numbers: number[] = [];
    for await (const event of await client.responses.retrieve(created.id, { stream: true })) {
      types.push(event.type);
      numbers.push(event.sequence_number);
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(numbers).toEqual(numbers.map((_, index) => index));
    const tail: number[] = [];
    for await (const event of await client.responses.retrieve(created.id, { stream: true, starting_after: 3 })) tail.push(event.sequence_number);
    expect(tail).toEqual(numbers.slice(4));
  });

  it('replays a queued background response as created then queued', async () => {
    const queued = await client.responses.create({ model: 'gpt-4o-mini', input: 'replay the queue', background: true });
    const types: string[] = [];
    for await (const event of await client.responses.retrieve(queued.id, { stream: true })) types.push(event.type);
    expect(types).toEqual(['response.created', 'response.queued']);
  });
});
