// A paced stream's chunks are made as they come due, not before its first byte: what a client
// reads and what the journal keeps must be what an unpaced stream of the same reply gives, and a
// fault still strikes after exactly the chunks it names.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/state/journal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const TEXT = 'A parcel that arrives damaged is "handled" in four steps, naïvely \\ and none needs a call.';

const FIXTURES = `
chat:
  - name: paced
    match: { contains: "parcel" }
    reply: { text: ${JSON.stringify(TEXT)} }
    stream: { first_chunk_ms: 1, chunk_ms: 1 }
`;

const SCENARIOS = `
scenarios:
  - name: cut
    steps: [ { fault: cut_stream, after_chunks: 3 } ]
  - name: errored
    steps: [ { fault: stream_error, after_chunks: 3, error: overloaded, message: "Overloaded mid-stream." } ]
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES }, scenarioFiles: { 'faults.yaml': SCENARIOS } });
});
afterAll(() => server.close());

async function journaled(session: string): Promise<JournalEntry[]> {
  const response = await server.admin(`/requests?session=${session}`);
  return ((await response.json()) as { requests: JournalEntry[] }).requests;
}

const openai = (session: string, headers: Record<string, string> = {}) =>
  new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0, defaultHeaders: { 'x-mock-session': session, ...headers } });

const ask = { model: 'gpt-4o-mini', stream: true as const, messages: [{ role: 'user' as const, content: 'Where is my parcel?' }] };

/** A stream's chunks without what differs from one answer to the next. */
function sameAnswer(chunks: OpenAI.ChatCompletionChunk[]) {
  return chunks.map(({ id: _id, created: _created, ...chunk }) => chunk);
}

/** The journal's events of a session's one stream, without what differs from one answer to the next. */
async function journaledEvents(session: string): Promise<unknown[]> {
  const [entry] = await journaled(session);
  const events = (entry!.response as unknown as { events: Array<{ event: string | null; data: unknown }> }).events;
  return events.map(({ event, data }) => ({ event, data: typeof data === 'object' ? { ...data, id: null, created: null } : data }));
}

describe('a paced stream', () => {
  it('reads, and is journaled, as the unpaced stream of the same reply (chat completions)', async () => {
    const read = async (session: string, headers?: Record<string, string>) => {
      const chunks: OpenAI.ChatCompletionChunk[] = [];
      for await (const chunk of await openai(session, headers).chat.completions.create(ask)) chunks.push(chunk);
      return chunks;
    };
    const paced = await read('paced-whole');
    const unpaced = await read('unpaced-whole', { 'x-mock-latency': 'none' });
    expect(paced.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(TEXT);
    expect(paced.length).toBeGreaterThan(10);
    expect(sameAnswer(paced)).toEqual(sameAnswer(unpaced));
    expect(await journaledEvents('paced-whole')).toEqual(await journaledEvents('unpaced-whole'));
  });

  it('is cut after exactly the chunks its fault names, and journaled with what went out (chat completions)', async () => {
    const pieces: string[] = [];
    const reading = (async () => {
      for await (const chunk of await openai('paced-cut', { 'x-mock-scenario': 'cut' }).chat.completions.create(ask)) {
        const content = chunk.choices[0]?.delta.content;
        if (content) pieces.push(content);
      }
    })();
    await expect(reading).rejects.toThrow();
    expect(pieces).toHaveLength(3);
    expect(TEXT.startsWith(pieces.join(''))).toBe(true);
    const events = (await journaledEvents('paced-cut')) as Array<{ data: { choices: Array<{ delta: { content?: string } }> } }>;
    expect(events.map((event) => event.data.choices[0]!.delta.content).slice(1)).toEqual(pieces);
  });

  it('ends in the in-stream error after exactly the chunks its fault names (messages)', async () => {
    const client = new Anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 0, defaultHeaders: { 'x-mock-session': 'paced-error', 'x-mock-scenario': 'errored' } });
    const texts: string[] = [];
    const reading = (async () => {
      const stream = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 256, stream: true, messages: [{ role: 'user', content: 'Where is my parcel?' }] });
      for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') texts.push(event.delta.text);
    })();
    const error = await reading.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).message).toContain('Overloaded mid-stream.');
    expect(texts).toHaveLength(3);
    expect(TEXT.startsWith(texts.join(''))).toBe(true);
  });
});
