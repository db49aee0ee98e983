// Stateful rate limits on the mock clock: live headers that count down, a 429 with a truthful
// retry-after once the budget is spent, and a fresh window when the clock passes window_ms.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SCENARIOS = `
scenarios:
  - name: three_a_minute
    steps: [ { error: rate_limit, limit: { requests: 3, window_ms: 60000 } } ]
  - name: token_budget
    steps: [ { error: rate_limit, limit: { tokens: 100, window_ms: 10000 } } ]
`;

let server: TestServer;

const advance = (ms: number) => server.advanceClock(ms);

const openai = (scenario: string, session: string) =>
  new OpenAI({
    baseURL: `${server.url}/v1`,
    apiKey: 'sk-test',
    maxRetries: 0,
    defaultHeaders: { 'x-mock-scenario': scenario, 'x-mock-session': session },
  });

const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'How many requests do I have left?' }] };

/** The rate-limit headers of an answer, 200 or 429. */
async function headersOf(client: OpenAI): Promise<{ status: number; headers: Headers }> {
  try {
    const { response } = await client.chat.completions.create(ask).withResponse();
    return { status: response.status, headers: response.headers };
  } catch (error) {
    if (!(error instanceof OpenAI.RateLimitError)) throw error;
    return { status: 429, headers: error.headers! };
  }
}

const pick = ({ status, headers }: { status: number; headers: Headers }, ...names: string[]) => [
  status,
  ...names.map((name) => headers.get(name)),
];

beforeAll(async () => {
  server = await startTestServer({ clock: '2030-01-01T00:00:00Z', scenarioFiles: { 'limits.yaml': SCENARIOS } });
});
afterAll(() => server.close());

describe('limit: { requests, window_ms }', () => {
  it('counts down, refuses with a truthful retry-after, and resets when the clock passes the window', async () => {
    const client = openai('three_a_minute', 'requests');
    const names = ['x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests'];
    expect(pick(await headersOf(client), ...names)).toEqual([200, '3', '2', '1m0s']);
    await advance(10_000);
    expect(pick(await headersOf(client), ...names)).toEqual([200, '3', '1', '50s']);
    expect(pick(await headersOf(client), ...names)).toEqual([200, '3', '0', '50s']);
    expect(pick(await headersOf(client), ...names, 'retry-after')).toEqual([429, '3', '0', '50s', '50']);
    await advance(49_500);
    expect(pick(await headersOf(client), ...names, 'retry-after')).toEqual([429, '3', '0', '500ms', '1']);
    await advance(500);
    expect(pick(await headersOf(client), ...names)).toEqual([200, '3', '2', '1m0s']);
  });

  it('keeps one window per session', async () => {
    const first = openai('three_a_minute', 'requests-a');
    for (let i = 0; i < 3; i++) await headersOf(first);
    expect((await headersOf(first)).status).toBe(429);
    expect(pick(await headersOf(openai('three_a_minute', 'requests-b')), 'x-ratelimit-remaining-requests')).toEqual([200, '2']);
  });

  it('speaks the messages style: anthropic-ratelimit-* headers with an ISO reset time', async () => {
    const client = new Anthropic({
      baseURL: server.url,
      apiKey: 'sk-test',
      maxRetries: 0,
      defaultHeaders: { 'x-mock-scenario': 'three_a_minute', 'x-mock-session': 'requests-messages' },
    });
    const request = { model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user' as const, content: 'hi' }] };
    const { response } = await client.messages.create(request).withResponse();
    const reset = new Date(Date.parse((await (await server.admin('/clock')).json() as { now: string }).now) + 60_000);
    expect(response.headers.get('anthropic-ratelimit-requests-remaining')).toBe('2');
    expect(response.headers.get('anthropic-ratelimit-requests-limit')).toBe('3');
    expect(response.headers.get('anthropic-ratelimit-requests-reset')).toBe(reset.toISOString().replace('.000Z', 'Z'));
    await client.messages.create(request);
    await client.messages.create(request);
    const error = await client.messages.create(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect((error as InstanceType<typeof Anthropic.RateLimitError>).headers?.get('retry-after')).toBe('60');
  });
});

describe('limit: { tokens, window_ms }', () => {
  it('spends the input tokens the reply reports before answering and its output once known, and refuses a request that would overdraw', async () => {
    const client = openai('token_budget', 'tokens');
    const { data, response } = await client.chat.completions.create(ask).withResponse();
    // The same request gets the same seeded reply, so each costs the same.
    const { prompt_tokens: input, completion_tokens: output } = data.usage!;
    expect(response.headers.get('x-ratelimit-limit-tokens')).toBe('100');
    expect(response.headers.get('x-ratelimit-remaining-tokens')).toBe(String(100 - input));
    let used = input + output;
    while (used + input <= 100) {
      const next = await client.chat.completions.create(ask).withResponse();
      expect(next.response.headers.get('x-ratelimit-remaining-tokens')).toBe(String(100 - used - input));
      used += input + output;
    }
    const refused = await headersOf(client);
    expect(pick(refused, 'x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens', 'retry-after')).toEqual([429, String(Math.max(0, 100 - used)), '10s', '10']);
    await advance(10_000);
    expect(pick(await headersOf(client), 'x-ratelimit-remaining-tokens')).toEqual([200, String(100 - input)]);
  });
});
