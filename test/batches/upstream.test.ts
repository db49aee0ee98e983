// With --upstream, a batch line no fixture answers is forwarded as the same request sent alone
// would be, and the upstream's answer goes into the output file.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { batchFile, journal, jsonl, readUntilWritten } from './helpers.js';

let upstream: TestServer;
let forwarder: TestServer;
beforeAll(async () => {
  upstream = await startTestServer({ fixtureFiles: { 'chat.yaml': 'chat:\n  - name: oslo\n    match: { contains: "capital of Norway" }\n    reply: { text: "Oslo." }\n' } });
  forwarder = await startTestServer({ upstream: upstream.url, clock: 'manual' });
});
afterAll(async () => {
  await forwarder.close();
  await upstream.close();
});

it('forwards a line no fixture answers and keeps the upstream answer', async () => {
  const client = new OpenAI({ baseURL: `${forwarder.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
  const text = batchFile([{ custom_id: 'norway', body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is the capital of Norway?' }] } }]);
  const file = await client.files.create({ file: await toFile(Buffer.from(text), 'one.jsonl'), purpose: 'batch' });
  const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
  await forwarder.advanceClock(60_000);
  // A read never waits on the upstream: the line is in once it answered.
  const done = await readUntilWritten(client, batch.id);
  expect(done.request_counts).toEqual({ total: 1, completed: 1, failed: 0 });
  const [line] = jsonl(await (await client.files.content(done.output_file_id!)).text());
  expect(line!.response.body.choices[0].message.content).toBe('Oslo.');
  const entry = (await journal(forwarder, 'default')).find((row) => row.batch === batch.id);
  expect(entry).toMatchObject({ path: '/v1/chat/completions', status: 200, source: 'upstream' });
});
