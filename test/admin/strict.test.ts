// --strict: an unmatched chat request is a 404 fixture_not_found with the near-miss diagnosis.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/state/journal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer({
    strict: true,
    fixtureFiles: { 'chat.yaml': 'chat:\n  - name: only-greetings\n    match: { contains: "hello", model: "gpt-4o*" }\n    reply: { text: "Hi." }\n' },
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

describe('--strict', () => {
  it('answers a matched request as usual', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    expect(completion.choices[0]!.message.content).toBe('Hi.');
  });

  it('answers an unmatched one 404 fixture_not_found, naming the closest fixture and its failed keys', async () => {
    const error = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'goodbye' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    const notFound = error as InstanceType<typeof OpenAI.NotFoundError>;
    expect(notFound.code).toBe('fixture_not_found');
    expect(notFound.message).toContain('"only-greetings"');
    expect(notFound.message).toContain('failed on: contains');
    const response = await server.admin('/requests?status=404');
    const [entry] = ((await response.json()) as { requests: JournalEntry[] }).requests;
    expect(entry!.near_miss).toMatchObject({ fixture: 'only-greetings', failed: ['contains'] });
  });
});
