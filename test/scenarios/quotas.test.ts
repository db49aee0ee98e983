// Quotas as the vendors enforce them (SPEC 17): one limit holding several budgets, each driven
// past in turn, with the live headers read through each SDK's raw response and the 429 naming
// the budget, the limit, what was used and what was asked.
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SCENARIOS = `
scenarios:
  - name: quota
    steps: [ { error: rate_limit, limit: { requests: 3, input_tokens: 1000, output_tokens: 1000, tokens: 1500, window_ms: 60000 } } ]
  - name: input_quota
    steps: [ { error: rate_limit, limit: { requests: 100, input_tokens: 40, window_ms: 60000 } } ]
  - name: output_quota
    steps: [ { error: rate_limit, limit: { requests: 100, output_tokens: 10, window_ms: 60000 } } ]
  - name: token_quota
    steps: [ { error: rate_limit, limit: { requests: 100, tokens: 60, window_ms: 30000 } } ]
`;

const FIXTURES = `
chat:
  - name: twenty-words
    match: { contains: "quota" }
    reply: { text: "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty" }
`;

const PROMPT = 'How much quota is left?';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock: '2030-01-01T00:00:00Z', scenarioFiles: { 'quotas.yaml': SCENARIOS }, fixtureFiles: { 'chat.yaml': FIXTURES } });
});
afterAll(() => server.close());

const headers = (scenario: string, session: string) => ({ 'x-mock-scenario': scenario, 'x-mock-session': session });
const openai = (scenario: string, session: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0, defaultHeaders: headers(scenario, session) });
const anthropic = (scenario: string, session: string) => new Anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 0, defaultHeaders: headers(scenario, session) });
const genai = (scenario: string, session: string) => new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: server.url, headers: headers(scenario, session) } });

const chat = (client: OpenAI) => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: PROMPT }] }).withResponse();
const message = (client: Anthropic) => client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: PROMPT }] }).withResponse();

/** RFC 3339 in whole seconds, rounded up as the reset a client may wait for. */
const rfc3339 = (ms: number) => new Date(Math.ceil(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

describe('a limit of several budgets', () => {
  it('carries every budget in the OpenAI headers, spends each, and refuses past requests', async () => {
    const client = openai('quota', 'openai-requests');
    const first = await chat(client);
    const { prompt_tokens: input, completion_tokens: output } = first.data.usage!;
    const h = first.response.headers;
    expect([h.get('x-ratelimit-limit-requests'), h.get('x-ratelimit-remaining-requests'), h.get('x-ratelimit-reset-requests')]).toEqual(['3', '2', '1m0s']);
    expect([h.get('x-ratelimit-limit-tokens'), h.get('x-ratelimit-remaining-tokens'), h.get('x-ratelimit-reset-tokens')]).toEqual(['1500', String(1500 - input), '1m0s']);
    await server.advanceClock(1_500);
    const second = (await chat(client)).response.headers;
    // The first answer's output was charged to the total once it was known.
    expect([second.get('x-ratelimit-remaining-requests'), second.get('x-ratelimit-remaining-tokens'), second.get('x-ratelimit-reset-tokens')]).toEqual(['1', String(1500 - 2 * input - output), '58.5s']);
    await chat(client);
    const error = (await chat(client).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.message).toBe('429 Rate limit reached for requests on gpt-4o-mini: limit 3 per 1 min, used 3, this request needs 1 more. Please try again in 59s.');
    expect([error.headers?.get('x-ratelimit-remaining-requests'), error.headers?.get('retry-after')]).toEqual(['0', '59']);
  });

  it('speaks the messages style: anthropic-ratelimit-* for each budget with RFC 3339 resets, and refuses past input tokens', async () => {
    const client = anthropic('input_quota', 'messages-input');
    const first = await message(client);
    const input = first.data.usage.input_tokens;
    const h = first.response.headers;
    const reset = rfc3339(Date.parse(((await (await server.admin('/clock')).json()) as { now: string }).now) + 60_000);
    expect([h.get('anthropic-ratelimit-requests-limit'), h.get('anthropic-ratelimit-requests-remaining'), h.get('anthropic-ratelimit-requests-reset')]).toEqual(['100', '99', reset]);
    expect([h.get('anthropic-ratelimit-input-tokens-limit'), h.get('anthropic-ratelimit-input-tokens-remaining'), h.get('anthropic-ratelimit-input-tokens-reset')]).toEqual(['40', String(40 - input), reset]);
    let used = input;
    while (used + input <= 40) {
      await message(client);
      used += input;
    }
    const error = (await message(client).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.RateLimitError>;
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect(error.message).toContain(`Rate limit reached for input tokens on claude-sonnet-4-6: limit 40 per 1 min, used ${used}, this request needs ${input} more.`);
    expect(error.headers?.get('anthropic-ratelimit-input-tokens-remaining')).toBe(String(40 - used));
  });

  it('charges output tokens once the answer is known, and answers generate-content with QuotaFailure and RetryInfo', async () => {
    const client = genai('output_quota', 'gemini-output');
    const first = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: PROMPT });
    const output = first.usageMetadata!.candidatesTokenCount! + (first.usageMetadata!.thoughtsTokenCount ?? 0);
    expect(output).toBeGreaterThan(10);
    const error = (await client.models.generateContent({ model: 'gemini-2.5-flash', contents: PROMPT }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(429);
    expect(JSON.parse(error.message).error).toEqual({
      code: 429,
      status: 'RESOURCE_EXHAUSTED',
      message: `Rate limit reached for output tokens on gemini-2.5-flash: limit 10 per 1 min, used ${output}, no output tokens are left for this request. Please try again in 60s.`,
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [
            {
              quotaMetric: 'generativelanguage.googleapis.com/generate_content_output_token_count',
              quotaId: 'GenerateContentOutputTokensPerModelPerMinute',
              quotaDimensions: { location: 'global', model: 'gemini-2.5-flash' },
              quotaValue: '10',
            },
          ],
        },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '60s' },
      ],
    });
  });

  it('refuses past the total of input and output tokens, and lets requests in again when the window rolls over', async () => {
    const client = openai('token_quota', 'openai-tokens');
    const first = await chat(client);
    const { prompt_tokens: input, completion_tokens: output } = first.data.usage!;
    let used = input + output;
    while (used + input <= 60) {
      await chat(client);
      used += input + output;
    }
    const error = (await chat(client).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error.message).toBe(`429 Rate limit reached for tokens on gpt-4o-mini: limit 60 per 30 s, used ${used}, this request needs ${input} more. Please try again in 30s.`);
    expect([error.headers?.get('x-ratelimit-remaining-tokens'), error.headers?.get('x-ratelimit-reset-tokens')]).toEqual([String(Math.max(0, 60 - used)), '30s']);
    await server.advanceClock(30_000);
    expect((await chat(client)).response.headers.get('x-ratelimit-remaining-tokens')).toBe(String(60 - input));
  });
});
