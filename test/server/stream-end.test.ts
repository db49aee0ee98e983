// A stream goes on after its route has returned (server/writer.ts): its journal entry, log line and
// metrics must still come once it is over, not when its headers went out, and carry how it ended.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JournalEntry } from '../../src/state/journal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const TEXT = 'Your parcel left the depot this morning and should reach you before the end of the week.';
const FIRST_MS = 20;
// Long enough that the journal read made at the second piece is answered while the stream is
// still open, even on a loaded machine (an admin read took 800 ms under a full suite at load 7).
const CHUNK_MS = 100;

const FIXTURES = `
chat:
  - match: { contains: "parcel" }
    reply: { text: ${JSON.stringify(TEXT)} }
    stream: { first_chunk_ms: ${FIRST_MS}, chunk_ms: ${CHUNK_MS} }
`;

let server: TestServer;
const lines: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES }, logLevel: 'info', logger: (line) => lines.push(line) });
});
afterAll(() => server.close());

async function journaled(session: string): Promise<JournalEntry[]> {
  return ((await (await server.admin(`/requests?session=${session}`)).json()) as { requests: JournalEntry[] }).requests;
}

/** The texts of the content chunks the journal says went out. */
function journaledPieces(entry: JournalEntry): string[] {
  const events = (entry.response as unknown as { events: Array<{ data: { choices?: Array<{ delta?: { content?: string } }> } }> }).events;
  return events.flatMap(({ data }) => data.choices?.[0]?.delta?.content || []);
}

const openai = (session: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
const ask = { model: 'gpt-4o-mini', stream: true as const, messages: [{ role: 'user' as const, content: 'Where is my parcel?' }] };

/** The headers the journal shows for a stream: those its client got, read once the stream is over. */
function expectSentHeaders(entry: JournalEntry, got: Headers): void {
  const headers = (entry.response as unknown as { headers: Record<string, string> }).headers;
  expect(headers).toMatchObject({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-mock-source': got.get('x-mock-source') });
  expect(headers['x-request-id']).toBe(got.get('x-request-id'));
}

/** The log line of a session's one request: its status and duration. */
function logged(status: number): number[] {
  return lines.flatMap((line) => line.match(new RegExp(` POST /v1/chat/completions chat-completions gpt-4o-mini ${status} fixture\\S* (\\d+)ms$`))?.[1] ?? []).map(Number);
}

describe('a paced stream, once its route has returned', () => {
  it('is journaled, logged and counted when it ends, with all it sent and its whole duration', async () => {
    const pieces: string[] = [];
    let journaledWhileOpen: JournalEntry[] | undefined;
    const { data: stream, response } = await openai('to-the-end').chat.completions.create(ask).withResponse();
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta.content;
      if (!content) continue;
      pieces.push(content);
      if (pieces.length === 2) journaledWhileOpen = await journaled('to-the-end');
    }
    expect(pieces.join('')).toBe(TEXT);
    expect(journaledWhileOpen).toEqual([]);
    const [entry, ...more] = await journaled('to-the-end');
    expect(more).toEqual([]);
    expect(entry!.status).toBe(200);
    expect(journaledPieces(entry!)).toEqual(pieces);
    expectSentHeaders(entry!, response.headers);
    // Every chunk after the first waited its CHUNK_MS: the request took at least that long.
    const [ms] = logged(200);
    expect(ms).toBeGreaterThanOrEqual(FIRST_MS + (pieces.length - 1) * CHUNK_MS - 1);
    expect(await (await server.admin('/metrics')).text()).toMatch(/mock_requests_total\{[^}]*status="200"[^}]*\} 1\b/);
  });

  it('is journaled, logged and counted as 499 with the chunks that went out when its client leaves', async () => {
    const pieces: string[] = [];
    const { data: stream, response } = await openai('left').chat.completions.create(ask).withResponse();
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta.content;
      if (content) pieces.push(content);
      if (pieces.length === 3) break;
    }
    await vi.waitUntil(async () => (await journaled('left')).length > 0, { timeout: 10_000, interval: 10 });
    const [entry] = await journaled('left');
    expect(entry!.status).toBe(499);
    expectSentHeaders(entry!, response.headers);
    const sent = journaledPieces(entry!);
    expect(sent.slice(0, 3)).toEqual(pieces);
    expect(sent.join('')).not.toBe(TEXT);
    expect(logged(499)).toHaveLength(1);
    expect(await (await server.admin('/metrics')).text()).toMatch(/mock_requests_total\{[^}]*status="499"[^}]*\} 1\b/);
  });
});
