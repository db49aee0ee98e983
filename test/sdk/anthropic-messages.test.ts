// The messages style through the official @anthropic-ai/sdk and the Vercel AI SDK's Anthropic
// provider, against a server with keys configured.
import { createAnthropic } from '@ai-sdk/anthropic';
import Anthropic from '@anthropic-ai/sdk';
import { generateText, jsonSchema, streamText, tool } from 'ai';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_CHAT_FIXTURES } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const KEY = 'sk-ant-test';

const FIXTURES = `
keys:
  - key: ${KEY}
chat:
${SHARED_CHAT_FIXTURES}  - name: weather-answer
    match: { tools: [get_weather], conversation: "degrees" }
    priority: 1
    reply:
      text: "It is 21 degrees in Paris."
  - name: plan-trip
    match: { contains: "plan my trip" }
    reply:
      reasoning: "First the weather, then the booking."
      text: "Let me look at the weather first."
      tool_calls:
        - name: get_weather
          arguments: { city: Lisbon, unit: celsius }
        - name: list_airports
          arguments: {}
`;

const weatherTool = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: {
    type: 'object' as const,
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
};
const airportsTool = { name: 'list_airports', description: 'Airports', input_schema: { type: 'object' as const, properties: {} } };

let server: TestServer;
let client: Anthropic;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES } });
  client = new Anthropic({ baseURL: server.url, apiKey: KEY, maxRetries: 0 });
});
afterAll(() => server.close());

const hello = { model: 'claude-sonnet-4-6', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'hello there' }] };

describe('messages.create through @anthropic-ai/sdk', () => {
  it('answers a fixture hit with one text block and the usage fields', async () => {
    const message = await client.messages.create(hello);
    expect(message.id).toMatch(/^msg_/);
    expect(message.type).toBe('message');
    expect(message.role).toBe('assistant');
    expect(message.model).toBe('claude-sonnet-4-6');
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from the fixture. How can I help?' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.stop_sequence).toBeNull();
    const usage = {
      input_tokens: expect.any(Number),
      output_tokens: 10,
      output_tokens_details: { thinking_tokens: 0 },
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      service_tier: 'standard',
      inference_geo: 'not_available',
    };
    expect(message.usage).toEqual(usage);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message._request_id).toMatch(/^req_/);
    const streamed = await client.messages.stream(hello).finalMessage();
    expect(streamed.usage).toEqual(usage);
  });

  it('answers tools with tool_use blocks whose input fits the input_schema', async () => {
    const message = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [weatherTool],
    });
    expect(message.stop_reason).toBe('tool_use');
    const use = message.content[0]!;
    if (use.type !== 'tool_use') throw new Error(`expected tool_use, got ${use.type}`);
    expect(use.id).toMatch(/^toolu_/);
    expect(use.name).toBe('get_weather');
    expect(use.input).toEqual({ city: 'Paris', unit: 'celsius' });
    expect(new Ajv().compile(weatherTool.input_schema)(use.input)).toBe(true);
  });

  it('generates schema-true input when tool_choice names a tool', async () => {
    const booking = {
      name: 'book_flight',
      description: 'Books a flight',
      input_schema: {
        type: 'object' as const,
        properties: {
          from: { type: 'string', minLength: 3, maxLength: 3 },
          passengers: { type: 'integer', minimum: 1, maximum: 9 },
          cabin: { type: 'string', enum: ['economy', 'business'] },
          dates: { type: 'array', items: { type: 'string', format: 'date' }, minItems: 1 },
        },
        required: ['from', 'passengers', 'cabin', 'dates'],
        additionalProperties: false,
      },
    };
    const message = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Get me out of here' }],
      tools: [weatherTool, booking],
      tool_choice: { type: 'tool', name: 'book_flight' },
    });
    const use = message.content.find((block) => block.type === 'tool_use');
    if (use?.type !== 'tool_use') throw new Error('expected a tool_use block');
    expect(use.name).toBe('book_flight');
    const validate = new Ajv({ validateFormats: false }).compile(booking.input_schema);
    expect(validate(use.input)).toBe(true);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('follows a tool_result turn with the answer', async () => {
    const first = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [weatherTool],
    });
    const use = first.content.find((block) => block.type === 'tool_use')!;
    if (use.type !== 'tool_use') throw new Error('expected tool_use');
    const second = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'What is the weather in Paris?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '21 degrees and sunny' }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'It is 21 degrees in Paris.' }]);
    expect(second.stop_reason).toBe('end_turn');
  });

  it('puts a signed thinking block first when thinking is enabled, and bills it as output', async () => {
    const plain = await client.messages.create(hello);
    const message = await client.messages.create({ ...hello, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } });
    const [thinking, text] = message.content;
    if (thinking?.type !== 'thinking') throw new Error('expected a thinking block first');
    expect(thinking.thinking).toBe('The user greets me.');
    expect(thinking.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(text).toEqual({ type: 'text', text: 'Hello from the fixture. How can I help?' });
    expect(message.usage.output_tokens).toBeGreaterThan(plain.usage.output_tokens);
    expect(plain.content.map((block) => block.type)).toEqual(['text']);
  });

  it('cuts the text at a stop sequence and says which', async () => {
    const message = await client.messages.create({ ...hello, stop_sequences: ['STOP', 'How'] });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from the fixture. ' }]);
    expect(message.stop_reason).toBe('stop_sequence');
    expect(message.stop_sequence).toBe('How');
  });

  it('stops at max_tokens with stop_reason max_tokens', async () => {
    const message = await client.messages.create({ ...hello, max_tokens: 3 });
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.output_tokens).toBe(3);
  });
});

describe('messages.stream() through @anthropic-ai/sdk', () => {
  const trip = {
    model: 'claude-sonnet-4-6',
    max_tokens: 4096,
    thinking: { type: 'enabled' as const, budget_tokens: 1024 },
    tools: [weatherTool, airportsTool],
    messages: [{ role: 'user' as const, content: 'Please plan my trip to Lisbon' }],
  };

  it('finalMessage() equals the message a fresh, identical server sends whole', async () => {
    // Ids come from (seed, session, counter): a second server, same seed, same session, same request.
    const twin = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES } });
    try {
      const headers = { 'x-mock-session': 'join-check' };
      const whole = await new Anthropic({ baseURL: twin.url, apiKey: KEY, maxRetries: 0 }).messages.create(trip, { headers });
      const stream = client.messages.stream(trip, { headers });
      let text = '';
      let thinking = '';
      stream.on('text', (delta) => (text += delta));
      stream.on('thinking', (delta) => (thinking += delta));
      const { parsed_output: _sdkHelperField, ...streamed } = await stream.finalMessage();
      expect(streamed).toStrictEqual(whole);
      expect(whole.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
      expect(text).toBe('Let me look at the weather first.');
      expect(thinking).toBe('First the weather, then the booking.');
      expect(whole.content[3]).toMatchObject({ type: 'tool_use', name: 'list_airports', input: {} });
    } finally {
      await twin.close();
    }
  });

  it('streams text events that join to the whole text, and finalText()', async () => {
    const stream = client.messages.stream({ ...hello, messages: [{ role: 'user', content: 'hello stream' }] });
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    expect(await stream.finalText()).toBe('Hello from the fixture. How can I help?');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Hello from the fixture. How can I help?');
  });
});

describe('messages.countTokens through @anthropic-ai/sdk', () => {
  it('counts the same input tokens a reply bills, without max_tokens', async () => {
    const conversation = { model: 'claude-sonnet-4-6', system: 'Be brief.', tools: [weatherTool], messages: [{ role: 'user' as const, content: 'What is the weather in Rome?' }] };
    const counted = await client.messages.countTokens(conversation);
    const message = await client.messages.create({ ...conversation, max_tokens: 100 });
    expect(counted).toEqual({ input_tokens: message.usage.input_tokens });
    expect(counted.input_tokens).toBeGreaterThan(10);
  });

  it('raises NotFoundError for an unknown model', async () => {
    const error = await client.messages.countTokens({ model: 'claude-nope', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
  });
});

describe('models through @anthropic-ai/sdk', () => {
  it('auto-paginates models.list() over several small pages', async () => {
    const all = await client.models.list({ limit: 100 });
    expect(all.has_more).toBe(false);
    const first = await client.models.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const seen: string[] = [];
    for await (const model of client.models.list({ limit: 2 })) seen.push(model.id);
    expect(all.data.length).toBeGreaterThan(4);
    expect(seen).toEqual(all.data.map((m) => m.id));
    expect(seen).toContain('claude-sonnet-4-6');
  });

  it('retrieves one model in the messages-style shape', async () => {
    const model = await client.models.retrieve('claude-sonnet-4-6');
    expect(model).toMatchObject({
      type: 'model',
      id: 'claude-sonnet-4-6',
      display_name: 'Claude Sonnet 4.6',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      lifecycle: 'active',
      max_input_tokens: 200000,
      max_tokens: 64000,
    });
    // What the mock honours: thinking on a reasoning model, images and structured output; no batches.
    expect(model.capabilities).toMatchObject({
      thinking: { supported: true, types: { enabled: { supported: true }, disabled: { supported: true } } },
      image_input: { supported: true },
      structured_outputs: { supported: true },
      batch: { supported: false },
    });
    const error = await client.models.retrieve('claude-nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect((error as InstanceType<typeof Anthropic.NotFoundError>).type).toBe('not_found_error');
  });
});

describe('messages errors', () => {
  it('raises AuthenticationError for an unknown key, in the messages envelope', async () => {
    const bad = new Anthropic({ baseURL: server.url, apiKey: 'sk-wrong', maxRetries: 0 });
    const error = await bad.messages.create(hello).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    const apiError = error as InstanceType<typeof Anthropic.AuthenticationError>;
    expect(apiError.type).toBe('authentication_error');
    expect(apiError.requestID).toMatch(/^req_/);
  });

  it('accepts the key as x-api-key too (the SDK itself sends a bearer token)', async () => {
    const viaHeader = new Anthropic({ baseURL: server.url, apiKey: null, defaultHeaders: { 'x-api-key': KEY }, maxRetries: 0 });
    expect((await viaHeader.messages.create(hello)).content[0]).toMatchObject({ type: 'text' });
    expect((await viaHeader.models.retrieve('claude-sonnet-4-6')).type).toBe('model');
  });

  it('answers 400 without the anthropic-version header, after checking the key', async () => {
    const send = (headers: Record<string, string>) =>
      fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(hello) });
    const missing = await send({ 'x-api-key': KEY });
    expect(missing.status).toBe(400);
    expect(missing.headers.get('request-id')).toMatch(/^req_/);
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await missing.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' },
      request_id: missing.headers.get('request-id'),
    });
    const noKey = await send({});
    expect(noKey.status).toBe(401);
    expect(((await noKey.json()) as { error: { type: string } }).error.type).toBe('authentication_error');
    const withBeta = await send({ 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'interleaved-thinking-2025-05-14' });
    expect(withBeta.status).toBe(200);
  });

  it('raises BadRequestError naming max_tokens when it is missing', async () => {
    const { max_tokens: _omitted, ...body } = hello;
    const error = await client.messages.create(body as typeof hello).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).apiMessage).toBe('max_tokens: Field required');
  });

  it('raises NotFoundError with not_found_error for an unknown model, stream or not', async () => {
    const error = await client.messages.create({ ...hello, model: 'claude-nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect((error as InstanceType<typeof Anthropic.NotFoundError>).type).toBe('not_found_error');
    expect((error as InstanceType<typeof Anthropic.NotFoundError>).message).toContain('claude-sonnet-4-6');
    const streamed = await client.messages.stream({ ...hello, model: 'claude-nope' }).finalMessage().catch((e: unknown) => e);
    expect(streamed).toBeInstanceOf(Anthropic.NotFoundError);
  });
});

describe('messages stream bytes', () => {
  it('sends every event with an event: line and the same JSON type, request-id included', async () => {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ ...hello, stream: true, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    const raw = await response.text();
    expect(raw.endsWith('\n\n')).toBe(true);
    const frames = raw.slice(0, -2).split('\n\n');
    const names = frames.map((frame) => {
      const [eventLine, dataLine, ...rest] = frame.split('\n');
      expect(rest).toEqual([]);
      const name = /^event: (\S+)$/.exec(eventLine!)?.[1];
      const data = JSON.parse(dataLine!.replace(/^data: /, '')) as { type: string };
      expect(data.type).toBe(name);
      return name;
    });
    expect(names.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(names).toContain('content_block_delta');
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
  });
});

describe('messages through the Vercel AI SDK', () => {
  const anthropic = () => createAnthropic({ baseURL: `${server.url}/v1`, apiKey: KEY });

  it('generateText returns tool calls with schema-true input', async () => {
    const result = await generateText({
      model: anthropic()('claude-sonnet-4-6'),
      prompt: 'What is the weather in Oslo?',
      tools: { get_weather: tool({ description: 'weather', inputSchema: jsonSchema(weatherTool.input_schema as never) }) },
    });
    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls[0]!.toolName).toBe('get_weather');
    expect(result.toolCalls[0]!.input).toEqual({ city: 'Oslo', unit: 'celsius' });
  });

  it('generateText and streamText agree, reasoning included', async () => {
    const request = {
      model: anthropic()('claude-sonnet-4-6'),
      prompt: 'hello vercel',
      providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
    } as const;
    const generated = await generateText(request);
    expect(generated.text).toBe('Hello from the fixture. How can I help?');
    expect(generated.reasoningText).toBe('The user greets me.');
    const streamed = streamText(request);
    let text = '';
    for await (const piece of streamed.textStream) text += piece;
    expect(text).toBe(generated.text);
    expect(await streamed.reasoningText).toBe('The user greets me.');
    expect((await streamed.usage).outputTokens).toBe(generated.usage.outputTokens);
    expect((await streamed.usage).inputTokens).toBe(generated.usage.inputTokens);
  });

  it('streamText streams a tool call', async () => {
    const streamed = streamText({
      model: anthropic()('claude-sonnet-4-6'),
      prompt: 'What is the weather in Bergen?',
      tools: { get_weather: tool({ description: 'weather', inputSchema: jsonSchema(weatherTool.input_schema as never) }) },
    });
    const calls = await streamed.toolCalls;
    expect(calls.map((call) => [call.toolName, call.input])).toEqual([['get_weather', { city: 'Bergen', unit: 'celsius' }]]);
    expect(await streamed.finishReason).toBe('tool-calls');
  });
});
