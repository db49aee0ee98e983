// Scenario files hot-reload like fixtures: a new scenario is usable at once, a broken file is
// reported in /__admin/health while the last good configuration stays, and counters survive.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const client = (scenario: string) =>
  new OpenAI({
    baseURL: `${server.url}/v1`,
    apiKey: 'sk-test',
    maxRetries: 0,
    defaultHeaders: { 'x-mock-scenario': scenario, 'x-mock-session': 'reload' },
  });
const status = (scenario: string) =>
  client(scenario)
    .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
    .then(
      () => 200,
      (error: unknown) => (error instanceof OpenAI.APIError ? error.status : error),
    );

const TWO_FAILURES = 'scenarios:\n  - name: two_failures\n    steps:\n      - { error: server_error, times: 2 }\n      - pass\n';

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('scenario hot reload', () => {
  it('serves a scenario written while the server runs, keeps its counter across reloads, and keeps the last good file', async () => {
    expect(await status('two_failures')).toBe(400);
    await server.writeScenario('seq.yaml', TWO_FAILURES);
    expect(await status('two_failures')).toBe(500);

    await server.writeScenario('other.yaml', 'scenarios:\n  - name: other\n    steps: [ { error: forbidden } ]\n');
    expect(await status('two_failures')).toBe(500);
    expect(await status('two_failures')).toBe(200);

    await server.writeScenario('seq.yaml', `${TWO_FAILURES}      - { error: teapot }\n`);
    const health = (await (await server.admin('/health')).json()) as { errors: Array<{ file: string; line: number }> };
    expect(health.errors).toEqual([expect.objectContaining({ file: expect.stringContaining('seq.yaml'), line: 6 })]);
    expect(await status('other')).toBe(403);
    expect(await status('two_failures')).toBe(200);
  });
});
