// Step counters under concurrent requests: a `times: 1` step is taken by exactly one request.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SCENARIOS = `
scenarios:
  - name: one_429
    steps:
      - { error: rate_limit, times: 1 }
      - pass
  - name: flaky_fast
    cycle: true
    steps:
      - { pass: true, times: 2 }
      - { error: server_error, times: 1 }
`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: { 'concurrency.yaml': SCENARIOS } });
});
afterAll(() => server.close());

async function parallel(scenario: string, session: string, count: number) {
  const client = new OpenAI({
    baseURL: `${server.url}/v1`,
    apiKey: 'sk-test',
    maxRetries: 0,
    defaultHeaders: { 'x-mock-scenario': scenario, 'x-mock-session': session },
  });
  const stream = (i: number) => i % 2 === 1;
  return Promise.allSettled(
    Array.from({ length: count }, async (_, i) => {
      const request = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: `request ${i}` }] };
      if (!stream(i)) return client.chat.completions.create(request);
      for await (const _chunk of await client.chat.completions.create({ ...request, stream: true }));
      return undefined;
    }),
  );
}

const failures = (results: PromiseSettledResult<unknown>[]) => results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);

describe('step counters under concurrency', () => {
  it('20 parallel requests against a times: 1 error step: exactly one error', async () => {
    const failed = failures(await parallel('one_429', 'parallel', 20));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toBeInstanceOf(OpenAI.RateLimitError);
  });

  it('30 parallel requests through a cycling every-third failure: exactly ten 500s', async () => {
    const failed = failures(await parallel('flaky_fast', 'parallel-flaky', 30));
    expect(failed).toHaveLength(10);
    expect(failed.every((error) => error instanceof OpenAI.InternalServerError)).toBe(true);
  });
});
