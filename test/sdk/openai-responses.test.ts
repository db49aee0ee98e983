// The responses style through the official openai SDK and the Vercel AI SDK (whose `openai(model)`
// speaks the responses style).
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { Ajv } from 'ajv';
import OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_CHAT_FIXTURES } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sseEvents } from '../helpers/sse.js';

const FIXTURES = `
chat:
${SHARED_CHAT_FIXTURES}  - name: second-turn
    match: { contains: "and then", turn: 2 }
    reply:
      text: "This is the second turn."
  - name: weather-answer
    match: { tools: [get_weather], conversation: "degrees" }
    priority: 1
    reply:
      text: "It is 18 degrees and sunny."
  - name: order-lookup
    match: { tools: [lookup_order], contains: "my order" }
    reply:
      text: "Let me look that up."
      tool_calls:
        - name: lookup_order
          arguments: { id: "A-1" }
  - name: order-answer
    match: { tools: [lookup_order], conversation: "shipped" }
    priority: 1
    reply:
      text: "Your order has shipped."
  - name: long
    match: { contains: "long story" }
    reply:
      text: "Once upon a time there was a mock server that answered every request the same way, run after run, so the tests never flaked."
`;

const SCENARIOS = `
scenarios:
  - name: break-stream
    steps: [ { fault: stream_error, after_chunks: 2, error: server_error, message: "The stream broke." } ]
`;

const weatherParameters = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const weatherTool = { type: 'function' as const, name: 'get_weather', description: 'Weather for a city', parameters: weatherParameters, strict: true };
const chatWeatherTool = { type: 'function' as const, function: { name: 'get_weather', description: 'Weather for a city', parameters: weatherParameters } };

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES }, scenarioFiles: { 'break.yaml': SCENARIOS } });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

describe('responses through the openai SDK', () => {
  it('answers a fixture with a message item, the output_text helper and the usage chat-completions counts', async () => {
    const response = await client.responses.create({ model: 'gpt-4o-mini', input: 'hello there' });
    expect(response.id).toMatch(/^resp_/);
    expect(response.object).toBe('response');
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe('Hello from the fixture. How can I help?');
    const message = response.output[0]!;
    expect(message).toMatchObject({ type: 'message', role: 'assistant', status: 'completed', id: expect.stringMatching(/^msg_/) });
    expect(message.type === 'message' && message.content[0]).toMatchObject({ type: 'output_text', annotations: [], logprobs: [] });
    const chat = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello there' }] });
    expect(response.usage).toEqual({
      input_tokens: chat.usage!.prompt_tokens,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: chat.usage!.completion_tokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: chat.usage!.total_tokens,
    });
    expect(response._request_id).toMatch(/^req_/);
    const streamed = await client.responses.stream({ model: 'gpt-4o-mini', input: 'hello there' }).finalResponse();
    expect(streamed.usage).toEqual(response.usage);
  });

  it('echoes the request settings', async () => {
    const response = await client.responses.create({
      model: 'gpt-4o-mini',
      input: 'hello',
      instructions: 'Answer kindly.',
      temperature: 0.3,
      metadata: { ticket: '42' },
      user: 'user-1',
      truncation: 'auto',
    });
    expect(response).toMatchObject({
      instructions: 'Answer kindly.',
      temperature: 0.3,
      top_p: 1,
      metadata: { ticket: '42' },
      user: 'user-1',
      truncation: 'auto',
      store: true,
      previous_response_id: null,
      tool_choice: 'auto',
      tools: [],
      text: { format: { type: 'text' } },
    });
  });

  it('calls a function, then answers its output through previous_response_id with chat-completions usage', async () => {
    const first = await client.responses.create({ model: 'gpt-4o-mini', input: 'What is the weather in Paris?', tools: [weatherTool] });
    const call = first.output.find((item) => item.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('expected a function call');
    expect(call.id).toMatch(/^fc_/);
    expect(call.call_id).toMatch(/^call_/);
    expect(call.status).toBe('completed');
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris', unit: 'celsius' });

    const second = await client.responses.create({
      model: 'gpt-4o-mini',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '18 degrees, clear sky' }],
      tools: [weatherTool],
    });
    expect(second.output_text).toBe('It is 18 degrees and sunny.');
    expect(second.previous_response_id).toBe(first.id);

    const chat = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: 'What is the weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: call.call_id, type: 'function', function: { name: call.name, arguments: call.arguments } }] },
        { role: 'tool', tool_call_id: call.call_id, content: '18 degrees, clear sky' },
      ],
      tools: [chatWeatherTool],
    });
    const chatCall = (await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [chatWeatherTool],
    })).choices[0]!.message.tool_calls![0]!;
    expect(chatCall.type === 'function' && chatCall.function.arguments).toBe(call.arguments);
    expect(second.usage!.input_tokens).toBe(chat.usage!.prompt_tokens);
    expect(second.usage!.output_tokens).toBe(chat.usage!.completion_tokens);
  });

  it('counts earlier turns for fixture matching through previous_response_id', async () => {
    const first = await client.responses.create({ model: 'gpt-4o-mini', input: 'hello' });
    const second = await client.responses.create({ model: 'gpt-4o-mini', input: 'and then?', previous_response_id: first.id });
    expect(second.output_text).toBe('This is the second turn.');
    const alone = await client.responses.create({ model: 'gpt-4o-mini', input: 'and then?' });
    expect(alone.output_text).not.toBe('This is the second turn.');
  });

  it('shows the reasoning as a summary when asked for one, and counts it as output either way', async () => {
    const withSummary = await client.responses.create({ model: 'o4-mini', input: 'hello', reasoning: { effort: 'low', summary: 'auto' } });
    expect(withSummary.output[0]).toEqual({
      id: expect.stringMatching(/^rs_/),
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'The user greets me.' }],
    });
    const reasoningTokens = withSummary.usage!.output_tokens_details.reasoning_tokens;
    expect(reasoningTokens).toBeGreaterThan(0);
    expect(withSummary.usage!.output_tokens).toBe(10 + reasoningTokens);
    expect(withSummary.reasoning).toEqual({ effort: 'low', summary: 'auto' });

    const effortOnly = await client.responses.create({ model: 'o4-mini', input: 'hello', reasoning: { effort: 'low' } });
    expect(effortOnly.output[0]).toMatchObject({ type: 'reasoning', summary: [] });
    expect(effortOnly.usage!.output_tokens_details.reasoning_tokens).toBe(reasoningTokens);

    const plain = await client.responses.create({ model: 'o4-mini', input: 'hello' });
    expect(plain.output.map((item) => item.type)).toEqual(['message']);
  });

  it('answers text.format json_schema with JSON that validates', async () => {
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, rating: { type: 'integer', minimum: 1, maximum: 5 }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['title', 'rating', 'tags'],
      additionalProperties: false,
    };
    const response = await client.responses.create({
      model: 'gpt-4o-mini',
      input: 'Review a film',
      text: { format: { type: 'json_schema', name: 'review', schema, strict: true } },
    });
    expect(new Ajv().compile(schema)(JSON.parse(response.output_text))).toBe(true);
    expect(response.text!.format).toEqual({ type: 'json_schema', name: 'review', schema, strict: true });
  });

  it('stops at max_output_tokens with status incomplete', async () => {
    const response = await client.responses.create({ model: 'gpt-4o-mini', input: 'a long story please', max_output_tokens: 16 });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.usage!.output_tokens).toBe(16);
    const events: string[] = [];
    const stream = await client.responses.create({ model: 'gpt-4o-mini', input: 'a long story please', max_output_tokens: 16, stream: true });
    for await (const event of stream) events.push(event.type);
    expect(events.at(-1)).toBe('response.incomplete');
  });

  it('satisfies the strict responses.stream() helper; the final response equals the whole one', async () => {
    const request = { model: 'o4-mini', input: 'hello stream', reasoning: { effort: 'low' as const, summary: 'auto' as const } };
    const whole = await client.responses.create(request);
    const runner = client.responses.stream(request);
    const events: ResponseStreamEvent[] = [];
    runner.on('event', (event) => events.push(event));
    let completed: unknown;
    runner.on('response.completed', (event) => {
      completed = event.response;
    });
    const final = await runner.finalResponse();
    expect(final.output_text).toBe(whole.output_text);
    expect(final.output.map((item) => item.type)).toEqual(whole.output.map((item) => item.type));
    expect(final.output[0]).toMatchObject({ summary: [{ type: 'summary_text', text: 'The user greets me.' }] });
    expect(final.usage).toEqual(whole.usage);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const types = events.map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    expect(types).toContain('response.reasoning_summary_text.delta');
    expect(types.filter((t) => t === 'response.output_text.delta').length).toBeGreaterThan(3);
    expect(types.at(-1)).toBe('response.completed');
    const { output_text: _helper, ...stored } = await client.responses.retrieve(final.id);
    expect(stored).toEqual(completed);
  });

  it('streams function-call arguments that join to the whole call', async () => {
    const runner = client.responses.stream({ model: 'gpt-4o-mini', input: 'What is the weather in Oslo?', tools: [weatherTool] });
    let joined = '';
    runner.on('response.function_call_arguments.delta', (event) => {
      joined += event.delta;
    });
    const final = await runner.finalResponse();
    const call = final.output.find((item) => item.type === 'function_call');
    expect(call?.type === 'function_call' && call.arguments).toBe(joined);
    expect(JSON.parse(joined)).toEqual({ city: 'Oslo', unit: 'celsius' });
  });

  it('throws the in-stream error of a stream_error fault', async () => {
    const stream = await client.responses.create(
      { model: 'gpt-4o-mini', input: 'hello', stream: true },
      { headers: { 'x-mock-scenario': 'break-stream' } },
    );
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event.type);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain('The stream broke.');
    expect(seen[0]).toBe('response.created');
    expect(seen).not.toContain('response.completed');
  });

  it('numbers a broken stream without a gap, its error events included (raw: the SDK throws the error event away)', async () => {
    const response = await fetch(`${server.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json', 'x-mock-scenario': 'break-stream' },
      body: JSON.stringify({ model: 'gpt-4o-mini', input: 'hello', stream: true }),
    });
    const events = sseEvents(await response.text()).map((e) => e.data as { type: string; sequence_number: number });
    expect(events.map((e) => e.type).slice(-2)).toEqual(['error', 'response.failed']);
    expect(events.map((e) => e.sequence_number)).toEqual([...events.keys()]);
  });

  it('retrieves a stored response, replays it as a stream, and deletes it', async () => {
    const created = await client.responses.create({ model: 'gpt-4o-mini', input: 'hello again' });
    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved).toEqual(created);
    const replayed = await client.responses.stream({ response_id: created.id }).finalResponse();
    expect(replayed).toMatchObject(created);
    const deleted = (await client.responses.delete(created.id)) as unknown;
    expect(deleted).toEqual({ id: created.id, object: 'response', deleted: true });
    const gone = await client.responses.retrieve(created.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(OpenAI.NotFoundError);
    const again = await client.responses.delete(created.id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('keeps stored responses per session', async () => {
    const other = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': 'other' } });
    const created = await client.responses.create({ model: 'gpt-4o-mini', input: 'hello' });
    expect(await other.responses.retrieve(created.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('raises NotFoundError for an unknown previous_response_id', async () => {
    const error = await client.responses.create({ model: 'gpt-4o-mini', input: 'hi', previous_response_id: 'resp_unknown' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    const notFound = error as InstanceType<typeof OpenAI.NotFoundError>;
    expect(notFound.code).toBe('previous_response_not_found');
    expect(notFound.param).toBe('previous_response_id');
  });

  it('raises BadRequestError naming the field', async () => {
    const error = await client.responses
      .create({ model: 'gpt-4o-mini', input: [{ type: 'function_call_output', output: 'x' } as never] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('input[0].call_id');
    const low = await client.responses.create({ model: 'gpt-4o-mini', input: 'hi', max_output_tokens: 4 }).catch((e: unknown) => e);
    expect((low as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('max_output_tokens');
  });
});

describe('responses with keys configured', () => {
  let keyed: TestServer;
  beforeAll(async () => {
    keyed = await startTestServer({ fixtureFiles: { 'keys.yaml': 'keys:\n  - key: sk-good\n' } });
  });
  afterAll(() => keyed.close());

  it('raises AuthenticationError for an unknown key, on create and retrieve', async () => {
    const bad = new OpenAI({ baseURL: `${keyed.url}/v1`, apiKey: 'sk-bad', maxRetries: 0 });
    expect(await bad.responses.create({ model: 'gpt-4o-mini', input: 'hi' }).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.AuthenticationError);
    const good = new OpenAI({ baseURL: `${keyed.url}/v1`, apiKey: 'sk-good', maxRetries: 0 });
    const created = await good.responses.create({ model: 'gpt-4o-mini', input: 'hi' });
    expect(await bad.responses.retrieve(created.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((await good.responses.retrieve(created.id)).id).toBe(created.id);
  });
});

describe('responses through the Vercel AI SDK', () => {
  const weather = tool({ description: 'Weather for a city', inputSchema: jsonSchema(weatherParameters as never) });

  it('generateText and streamText agree on text and usage', async () => {
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test' });
    const generated = await generateText({ model: openai('gpt-4o-mini'), prompt: 'hello vercel' });
    expect(generated.text).toBe('Hello from the fixture. How can I help?');
    expect(generated.response.id).toMatch(/^resp_/);
    const streamed = streamText({ model: openai('gpt-4o-mini'), prompt: 'hello vercel' });
    let text = '';
    for await (const piece of streamed.textStream) text += piece;
    expect(text).toBe(generated.text);
    const usage = await streamed.usage;
    expect(usage.inputTokens).toBe(generated.usage.inputTokens);
    expect(usage.outputTokens).toBe(generated.usage.outputTokens);
  });

  it('shows reasoning summaries when the provider options ask for them', async () => {
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test' });
    const providerOptions = { openai: { reasoningEffort: 'low', reasoningSummary: 'auto' } };
    const generated = await generateText({ model: openai('o4-mini'), prompt: 'hello', providerOptions });
    expect(generated.reasoningText).toBe('The user greets me.');
    expect(generated.usage.outputTokenDetails.reasoningTokens).toBeGreaterThan(0);
    const streamed = streamText({ model: openai('o4-mini'), prompt: 'hello', providerOptions });
    expect(await streamed.reasoningText).toBe('The user greets me.');
    expect(await streamed.text).toBe(generated.text);
  });

  it('returns tool calls whole and streamed', async () => {
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test' });
    const generated = await generateText({ model: openai('gpt-4o-mini'), prompt: 'What is the weather in Oslo?', tools: { get_weather: weather } });
    expect(generated.toolCalls[0]!.toolName).toBe('get_weather');
    expect(generated.toolCalls[0]!.input).toEqual({ city: 'Oslo', unit: 'celsius' });
    expect(generated.finishReason).toBe('tool-calls');
    const streamed = streamText({ model: openai('gpt-4o-mini'), prompt: 'What is the weather in Oslo?', tools: { get_weather: weather } });
    const calls = await streamed.toolCalls;
    expect(calls.map((c) => [c.toolName, c.input])).toEqual([['get_weather', { city: 'Oslo', unit: 'celsius' }]]);
  });

  it('runs a tool and answers its result in the next step', async () => {
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test' });
    const result = await generateText({
      model: openai('gpt-4o-mini'),
      prompt: 'What is the weather in Rome?',
      tools: { get_weather: tool({ ...weather, execute: async () => '21 degrees' }) },
      stopWhen: stepCountIs(2),
    });
    expect(result.steps).toHaveLength(2);
    expect(result.text).toBe('It is 18 degrees and sunny.');
  });

  it('resolves the item references it sends for earlier output', async () => {
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test' });
    const lookup = tool({
      description: 'Order status',
      inputSchema: jsonSchema({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as never),
      execute: async () => 'shipped',
    });
    const result = streamText({
      model: openai('gpt-4o-mini'),
      prompt: 'Where is my order?',
      tools: { lookup_order: lookup },
      stopWhen: stepCountIs(2),
    });
    expect(await result.text).toBe('Your order has shipped.');
    const secondStep = (await result.steps)[1]!;
    const sent = secondStep.request.body as { input: Array<{ type?: string; id?: string }> };
    expect(sent.input).toContainEqual({ type: 'item_reference', id: expect.stringMatching(/^msg_/) });
  });
});
