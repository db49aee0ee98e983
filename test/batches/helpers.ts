// What the batch tests share: a JSONL batch file built from requests, and reading the journal.
import type OpenAI from 'openai';
import { vi } from 'vitest';
import type { TestServer } from '../helpers/server.js';

/** Reads the batch until it has written its files: a line out to an upstream is answered while reads go on. */
export function readUntilWritten(client: OpenAI, id: string): Promise<OpenAI.Batch> {
  return vi.waitFor(async () => {
    const read = await client.batches.retrieve(id);
    if (!read.output_file_id && !read.error_file_id) throw new Error(`batch ${id} has written no file yet`);
    return read;
  }, { timeout: 5_000, interval: 20 });
}

export interface BatchRequest {
  custom_id: string;
  method?: string;
  url?: string;
  body: Record<string, unknown>;
}

/** A `batch` file: one request a line, POST to `url` unless a request says otherwise. */
export function batchFile(requests: BatchRequest[], url = '/v1/chat/completions'): string {
  return `${requests.map((request) => JSON.stringify({ method: 'POST', url, ...request })).join('\n')}\n`;
}

/** `count` chat requests asking `ask N` of gpt-4o-mini, with custom ids `line-N` (from 1). */
export function chatLines(count: number, ask = (n: number) => `question ${n}`): BatchRequest[] {
  return Array.from({ length: count }, (_, i) => ({
    custom_id: `line-${i + 1}`,
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: ask(i + 1) }] },
  }));
}

export interface JournalRow {
  path: string;
  status: number;
  batch: string | null;
  fixture: string | null;
  scenario: string | null;
  source: string;
  usage: { input_tokens: number; output_tokens: number } | null;
  time: string;
  body: unknown;
}

export async function journal(server: TestServer, session: string): Promise<JournalRow[]> {
  const response = await server.admin(`/requests?session=${encodeURIComponent(session)}`);
  return ((await response.json()) as { requests: JournalRow[] }).requests;
}

/** Parses a JSONL text. */
export function jsonl<T = Record<string, any>>(text: string): T[] {
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as T);
}

/** Sets the mock clock to a whole second two days past where it reads: each test's batches start afresh. */
export async function freshDay(server: TestServer): Promise<void> {
  const { now_ms: now } = (await (await server.admin('/clock')).json()) as { now_ms: number };
  const next = Math.ceil(now / 1000) * 1000 + 48 * 3600 * 1000;
  await server.admin('/clock', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ set: new Date(next).toISOString() }) });
}
