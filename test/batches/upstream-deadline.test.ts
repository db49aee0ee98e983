// A batch line forwarded to an upstream that never answers: the line fails once the upstream's
// own deadline (--upstream-timeout-ms) passes, and reads of the batch never wait on it.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { batchFile, chatLines, jsonl, readUntilWritten } from './helpers.js';

let upstream: FakeUpstream;
let forwarder: TestServer;
beforeAll(async () => {
  // Takes the request and never says a word.
  upstream = await startFakeUpstream(() => {});
  forwarder = await startTestServer({ upstream: upstream.url, upstreamTimeoutMs: 300, clock: 'manual' });
});
afterAll(async () => {
  await forwarder.close();
  await upstream.close();
});

it('answers reads while a line waits on the upstream, and fails the line at the deadline', async () => {
  const client = new OpenAI({ baseURL: `${forwarder.url}/v1`, apiKey: 'sk-test', maxRetries: 0, timeout: 5_000 });
  const file = await client.files.create({ file: await toFile(Buffer.from(batchFile(chatLines(1))), 'one.jsonl'), purpose: 'batch' });
  const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
  await forwarder.advanceClock(60_000);
  // Read while the line is out: the upstream has it, and the read still answers.
  await vi.waitFor(() => expect(upstream.received).toHaveLength(1), { timeout: 5_000 });
  expect((await client.batches.retrieve(batch.id)).request_counts?.failed).toBe(0);
  expect((await forwarder.admin('/clock', { method: 'POST', body: JSON.stringify({ advance_ms: 1_000 }), headers: { 'content-type': 'application/json' } })).status).toBe(200);
  const failed = await readUntilWritten(client, batch.id);
  expect(failed.request_counts).toEqual({ total: 1, completed: 0, failed: 1 });
  const [line] = jsonl(await (await client.files.content(failed.error_file_id!)).text());
  expect(line!.response.status_code).toBe(504);
  expect(line!.response.body.error.message).toContain(`The upstream ${upstream.url}/v1/chat/completions did not answer within 300 ms`);
});
