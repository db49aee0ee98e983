// The openai SDK on OpenRouter's base URL: vendor-prefixed ids, costs in the usage, the stream's
// processing comments, errors in and out of streams, and the journal under `openrouter`.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { houseChecks, TIDES } from './house.js';

const FIXTURES = TIDES;

const SCENARIOS = `
scenarios:
  - name: limited
    steps: [ { error: rate_limit, headers: { retry-after: "3" } } ]
  - name: errored
    steps: [ { fault: stream_error, after_chunks: 2, error: overloaded, message: "Upstream provider overloaded." } ]
`;

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'] } },
};

let server: TestServer;
const client = (headers: Record<string, string> = {}) => new OpenAI({ baseURL: `${server.url}/api/v1`, apiKey: 'sk-or-test', maxRetries: 0, defaultHeaders: headers });
const tides = [{ role: 'user' as const, content: 'Tell me about tides.' }];
const TIDES_TEXT = 'Tides follow the moon, twice a day, along every coast.';
// OpenRouter's own request fields, which the openai SDK passes on as they are.
const usageAsked = { usage: { include: true } } as Record<string, unknown>;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'or.yaml': FIXTURES }, scenarioFiles: { 'or.yaml': SCENARIOS } });
});
afterAll(() => server.close());

describe('the openai SDK on OpenRouter', () => {
  it('answers a vendor-prefixed id whole and streamed alike, with the cost when usage is asked', async () => {
    const { data: whole, response } = await client()
      .chat.completions.create({ model: 'anthropic/claude-sonnet-4.6', messages: tides, ...usageAsked })
      .withResponse();
    expect(whole.choices[0]!.message.content).toBe(TIDES_TEXT);
    expect(response.headers.get('x-generation-id')).toMatch(/^gen-/);
    const usage = whole.usage as unknown as { prompt_tokens: number; completion_tokens: number; cost: number };
    expect(usage.cost).toBeCloseTo((usage.prompt_tokens * 3 + usage.completion_tokens * 15) / 1e6, 12);

    const stream = await client().chat.completions.create({ model: 'anthropic/claude-sonnet-4-6', messages: tides, stream: true, ...usageAsked });
    let text = '';
    let streamedUsage: Record<string, unknown> | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) streamedUsage = chunk.usage as unknown as Record<string, unknown>;
    }
    expect(text).toBe(whole.choices[0]!.message.content);
    expect(streamedUsage).toMatchObject({ prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, cost: usage.cost });
  });

  it('sends a processing comment before the first event of a stream', async () => {
    const response = await fetch(`${server.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-or-test', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: tides, stream: true }),
    });
    const text = await response.text();
    expect(text.startsWith(': OPENROUTER PROCESSING\n\n')).toBe(true);
    expect(text.indexOf(': OPENROUTER PROCESSING')).toBeLessThan(text.indexOf('data: '));
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('calls a forced tool with arguments true to its schema', async () => {
    const answer = await client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Weather?' }], tools: [weatherTool], tool_choice: 'required' });
    const call = answer.choices[0]!.message.tool_calls![0]! as { function: { name: string; arguments: string } };
    expect(call.function.name).toBe('get_weather');
    const args = JSON.parse(call.function.arguments) as { city: unknown; days: unknown };
    expect(typeof args.city).toBe('string');
    expect(Number.isInteger(args.days)).toBe(true);
    expect(answer.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('raises RateLimitError for a rate_limit scenario, and an error inside a stream', async () => {
    const limited = await client({ 'x-mock-scenario': 'limited' }).chat.completions.create({ model: 'openai/gpt-4o-mini', messages: tides }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('3');

    const stream = await client({ 'x-mock-scenario': 'errored' }).chat.completions.create({ model: 'openai/gpt-4o-mini', messages: tides, stream: true });
    const broke = await (async () => {
      for await (const _chunk of stream) void _chunk;
    })().catch((e: unknown) => e);
    expect(broke).toBeInstanceOf(OpenAI.APIError);
    expect((broke as Error).message).toContain('Upstream provider overloaded.');
  });

  it('answers an id the catalog does not list with a 404, and journals the catalog id', async () => {
    const missing = await client().chat.completions.create({ model: 'meta-llama/llama-9-400b', messages: tides }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    await client({ 'x-mock-session': 'or-journal' }).chat.completions.create({ model: 'anthropic/claude-sonnet-4.6:nitro', messages: tides });
    const { requests } = (await (await server.admin('/requests?session=or-journal')).json()) as { requests: Array<{ style: string; model: string; cost_usd: number }> };
    expect(requests[0]).toMatchObject({ style: 'openrouter', model: 'claude-sonnet-4-6' });
    expect(requests[0]!.cost_usd).toBeGreaterThan(0);
  });

  it('lists models in OpenRouter\'s form with per-token prices, embeds and completes under /api/v1', async () => {
    const listed = (await client().models.list()).data as unknown as Array<Record<string, unknown>>;
    const sonnet = listed.find((model) => model.id === 'anthropic/claude-sonnet-4.6');
    expect(sonnet).toMatchObject({
      name: 'Anthropic: Claude Sonnet 4.6',
      created: expect.any(Number),
      context_length: 200000,
      pricing: { prompt: '0.000003', completion: '0.000015', input_cache_read: '0.0000003' },
      architecture: { input_modalities: expect.arrayContaining(['text']), output_modalities: ['text'], tokenizer: 'Claude' },
      top_provider: { context_length: 200000, max_completion_tokens: 64000 },
      supported_parameters: expect.arrayContaining(['tools', 'reasoning']),
    });
    expect(listed.map((model) => model.id)).toEqual(expect.arrayContaining(['openai/gpt-4o-mini', 'google/gemini-2.5-flash', 'openai/gpt-3.5-turbo-instruct']));
    expect(listed.some((model) => model.id === 'openai/text-embedding-3-small')).toBe(false);
    const answered = await client().chat.completions.create({ model: String(sonnet!.id), messages: tides });
    expect(answered.choices[0]!.message.content).toBe(TIDES_TEXT);
    const vectors = await client({ 'x-mock-session': 'or-doors' }).embeddings.create({ model: 'openai/text-embedding-3-small', input: ['one', 'two'] });
    expect(vectors.data).toHaveLength(2);
    const completed = await client({ 'x-mock-session': 'or-doors' }).completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test' });
    expect(completed.choices[0]!.text.length).toBeGreaterThan(0);
    const prefixed = await client({ 'x-mock-session': 'or-doors' }).completions.create({ model: 'openai/gpt-3.5-turbo-instruct', prompt: 'Say this is a test' });
    expect(prefixed.choices[0]!.text).toBe(completed.choices[0]!.text);
    const byChatModel = await client({ 'x-mock-session': 'or-doors' }).completions.create({ model: 'anthropic/claude-sonnet-4.6', prompt: 'Tell me about tides.' });
    expect(byChatModel.choices[0]!.text).toBe(TIDES_TEXT);
    const missing = await client().embeddings.create({ model: 'acme/embed-9', input: 'one' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    const { requests } = (await (await server.admin('/requests?session=or-doors')).json()) as { requests: Array<{ style: string; model: string }> };
    expect(requests.map((entry) => [entry.style, entry.model])).toEqual([
      ['openrouter', 'text-embedding-3-small'],
      ['openrouter', 'gpt-3.5-turbo-instruct'],
      ['openrouter', 'gpt-3.5-turbo-instruct'],
      ['openrouter', 'claude-sonnet-4-6'],
    ]);
    const unknown = await client().completions.create({ model: 'acme/complete-9', prompt: 'one' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
  });

  houseChecks({
    style: 'openrouter',
    ask: async (url, headers, stream) => {
      const openrouter = new OpenAI({ baseURL: `${url}/api/v1`, apiKey: 'sk-or-test', maxRetries: 0, defaultHeaders: headers });
      const messages = [{ role: 'user' as const, content: 'What is the capital of Norway?' }];
      if (!stream) return (await openrouter.chat.completions.create({ model: 'openai/gpt-4o-mini', messages })).choices[0]!.message.content ?? '';
      let text = '';
      for await (const chunk of await openrouter.chat.completions.create({ model: 'openai/gpt-4o-mini', messages, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    },
  });
});
