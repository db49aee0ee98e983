// A semantic fault on a door that answers no chat (embeddings, images) has nothing to act on:
// the answer is what it would have been, and the journal says the fault did not apply.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: shippedScenarioFiles() });
});
afterAll(() => server.close());

const client = (session: string) =>
  new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', maxRetries: 0, defaultHeaders: { 'x-mock-scenario': 'refusal', 'x-mock-session': session } });

async function journal(session: string) {
  const response = await server.admin(`/requests?session=${session}`);
  return ((await response.json()) as { requests: Array<{ fault: string; status: number }> }).requests[0]!;
}

describe('semantic faults on the doors without a chat', () => {
  it('embeddings answer their vectors and journal the fault as not applicable', async () => {
    const answer = await client('faults-embeddings').embeddings.create({ model: 'text-embedding-3-small', input: 'tides and the moon' });
    expect(answer.data[0]!.embedding.length).toBeGreaterThan(0);
    expect(await journal('faults-embeddings')).toMatchObject({ fault: 'refusal (not applicable)', status: 200 });
  });

  it('images answer their picture and journal the fault as not applicable', async () => {
    const answer = await client('faults-images').images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse at dusk', size: '1024x1024' });
    expect(answer.data![0]!.b64_json!.length).toBeGreaterThan(0);
    expect(await journal('faults-images')).toMatchObject({ fault: 'refusal (not applicable)', status: 200 });
  });
});
