// A fixture's reply streamed again is framed from its pieces' JSON kept the first time: each stream
// must still carry its own id in every chunk, the whole text, and a journal of what it sent, in
// one run of chunks and in several (a reply longer than a run framed at once).
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/state/journal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SHORT = 'A parcel that arrives damaged is "handled" in four steps, naïvely \\ and none needs a call.';
const LONG = 'Keep the parcel, its box and the label exactly as they arrived, then open a ticket. '.repeat(30).trim();

/** Too long for its split to be kept, and its frames pass the journal's bound of 1 MB. */
const HUGE = 'Keep the parcel, its box and the label exactly as they arrived, then open a ticket. '.repeat(1000).trim();

const FIXTURES = `
chat:
  - name: short
    match: { contains: "short one" }
    reply: { text: ${JSON.stringify(SHORT)} }
  - name: long
    match: { contains: "long one" }
    reply: { text: ${JSON.stringify(LONG)} }
  - name: huge
    match: { contains: "huge one" }
    reply: { text: ${JSON.stringify(HUGE)} }
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES } });
});
afterAll(() => server.close());

async function journaled(session: string): Promise<JournalEntry[]> {
  const response = await server.admin(`/requests?session=${session}`);
  return ((await response.json()) as { requests: JournalEntry[] }).requests;
}

/** Each stream's chunks' data as the journal shows them, by the stream's id. */
function journaledChunks(entries: JournalEntry[]): Map<string, unknown[]> {
  const events = entries.map((entry) => (entry.response as unknown as { events: Array<{ data: unknown }> }).events.map((event) => event.data));
  return new Map(events.map((data) => [(data[0] as { id: string }).id, data.filter((item) => item !== '[DONE]')]));
}

describe('a fixture streamed again', () => {
  it.each([
    ['in one run', 'short one', SHORT],
    ['in several runs', 'long one', LONG],
  ])('carries its own id in every chunk, the whole text and its journal (chat completions, %s)', async (_, ask, text) => {
    const session = `chat-${ask.replace(' ', '-')}`;
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
    const streams: OpenAI.ChatCompletionChunk[][] = [];
    for (let i = 0; i < 3; i++) {
      const chunks: OpenAI.ChatCompletionChunk[] = [];
      for await (const chunk of await client.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: ask }] })) chunks.push(chunk);
      streams.push(chunks);
    }
    const ids = streams.map((chunks) => chunks[0]!.id);
    expect(new Set(ids).size).toBe(3);
    for (const [i, chunks] of streams.entries()) {
      expect(chunks.length).toBeGreaterThan(text.length / 8);
      expect(chunks.every((chunk) => chunk.id === ids[i])).toBe(true);
      expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(text);
    }
    const journal = journaledChunks(await journaled(session));
    expect(ids.map((id) => journal.get(id))).toEqual(streams);
  });

  it('carries its own id and the whole text through the messages SDK', async () => {
    const client = new Anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const seen: Array<{ id: string; text: string }> = [];
    for (let i = 0; i < 3; i++) {
      const stream = client.messages.stream({ model: 'claude-opus-4-8', max_tokens: 1024, messages: [{ role: 'user', content: 'long one' }] });
      let streamed = '';
      stream.on('text', (delta) => (streamed += delta));
      const message = await stream.finalMessage();
      seen.push({ id: message.id, text: streamed });
    }
    expect(new Set(seen.map(({ id }) => id)).size).toBe(3);
    expect(seen.every(({ text }) => text === LONG)).toBe(true);
  });

  it('streams a reply too long to keep, past the bound of the journal, to its end', async () => {
    const client = new Anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const stream = client.messages.stream({ model: 'claude-opus-4-8', max_tokens: 64_000, messages: [{ role: 'user', content: 'huge one' }] });
    let streamed = '';
    stream.on('text', (delta) => (streamed += delta));
    expect((await stream.finalMessage()).stop_reason).toBe('end_turn');
    expect(streamed).toBe(HUGE);
  });
});
