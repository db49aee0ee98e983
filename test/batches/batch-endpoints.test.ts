// A batch for every endpoint the installed openai SDK's `BatchCreateParams.endpoint` lists
// (SPEC 20), through the SDK's files and batches APIs: each line is answered as the same request
// sent alone would be. The table is keyed by the SDK's own type, so an endpoint a new SDK adds
// fails to compile here until it has a row.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { batchFile, freshDay, jsonl } from './helpers.js';

type Endpoint = OpenAI.BatchCreateParams['endpoint'];

/** A 1×1 PNG. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A line's body, and what its answer holds. */
type Row = { body: Record<string, unknown>; answer: Record<string, unknown> };

const TABLE: Record<Endpoint, Row> = {
  '/v1/responses': { body: { model: 'gpt-4o-mini', input: 'ping' }, answer: { object: 'response', status: 'completed' } },
  '/v1/chat/completions': { body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }] }, answer: { object: 'chat.completion' } },
  '/v1/embeddings': { body: { model: 'text-embedding-3-small', input: 'ping' }, answer: { object: 'list', model: 'text-embedding-3-small' } },
  '/v1/completions': { body: { model: 'gpt-3.5-turbo-instruct', prompt: 'ping' }, answer: { object: 'text_completion' } },
  '/v1/moderations': { body: { model: 'omni-moderation-latest', input: 'ping' }, answer: { model: 'omni-moderation-latest' } },
  '/v1/images/generations': { body: { model: 'dall-e-2', prompt: 'a lighthouse', size: '256x256', response_format: 'b64_json' }, answer: { created: expect.any(Number) } },
  '/v1/videos': { body: { model: 'sora-2', prompt: 'a lighthouse at dusk', seconds: '4' }, answer: { object: 'video', model: 'sora-2' } },
  // A line carries an edit in its JSON form, the pictures named by URL or file id.
  '/v1/images/edits': {
    body: { model: 'gpt-image-1', prompt: 'add a boat', images: [{ image_url: `data:image/png;base64,${PIXEL}` }], output_format: 'png' },
    answer: { created: expect.any(Number), data: [expect.objectContaining({ b64_json: expect.any(String) })] },
  },
};

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer({ clock: '2030-01-01T00:00:00Z' });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': 'endpoints' } });
});
afterAll(() => server.close());
beforeEach(() => freshDay(server));

describe('a batch line for every endpoint the SDK lists', () => {
  for (const [endpoint, row] of Object.entries(TABLE) as Array<[Endpoint, Row]>) {
    it(`${endpoint}: answered as the request alone`, async () => {
      const file = await client.files.create({ file: await toFile(Buffer.from(batchFile([{ custom_id: 'one', body: row.body }], endpoint)), 'lines.jsonl'), purpose: 'batch' });
      const batch = await client.batches.create({ input_file_id: file.id, endpoint, completion_window: '24h' });
      await server.advanceClock(10_000);
      const done = await client.batches.retrieve(batch.id);
      expect(done).toMatchObject({ status: 'completed', endpoint, request_counts: { total: 1, completed: 1, failed: 0 } });
      const [line] = jsonl(await (await client.files.content(done.output_file_id!)).text());
      expect(line).toMatchObject({ custom_id: 'one', error: null, response: { status_code: 200, body: row.answer } });
    });
  }
});
