// On the real clock a batch moves by itself, with the same timing a manual clock steps through:
// the defaults make a 10-line batch complete about 4.5 s after it was created. The test polls to
// a deadline; the figures it checks are the batch's own timestamps.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { batchFile, chatLines, jsonl } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

it('completes a 10-line batch about 4.5 s after creating it, its lines answered in order', async () => {
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
  const file = await client.files.create({ file: await toFile(Buffer.from(batchFile(chatLines(10))), 'ten.jsonl'), purpose: 'batch' });
  const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
  const seen = new Set<string>([batch.status]);
  // The real clock moves it: polled to a deadline, every status seen on the way kept.
  const current = await vi.waitUntil(async () => {
    const now = await client.batches.retrieve(batch.id);
    seen.add(now.status);
    return now.status === 'completed' ? now : undefined;
  }, { timeout: 30_000, interval: 100 });
  expect(current.status).toBe('completed');
  expect(seen.has('in_progress')).toBe(true);
  // 1 s validating, 2.5 s running, 1 s finalizing; the timestamps are whole seconds.
  expect(current.in_progress_at! - current.created_at).toBeGreaterThanOrEqual(1);
  expect(current.in_progress_at! - current.created_at).toBeLessThanOrEqual(2);
  expect([4, 5]).toContain(current.completed_at! - current.created_at);
  const output = jsonl(await (await client.files.content(current.output_file_id!)).text());
  expect(output.map((line) => line.custom_id)).toEqual(chatLines(10).map((line) => line.custom_id));
});
