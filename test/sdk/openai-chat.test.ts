// The chat-completions style through the official openai SDK and the Vercel AI SDK.
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText } from 'ai';
import { Ajv } from 'ajv';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_CHAT_FIXTURES } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
${SHARED_CHAT_FIXTURES}`;

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['city', 'unit'],
      additionalProperties: false,
    },
  },
};

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES } });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

describe('chat-completions through the openai SDK', () => {
  it('answers a fixture hit with the fixture text and counted usage', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello there' }],
    });
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]!.message.content).toBe('Hello from the fixture. How can I help?');
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(completion.usage!.completion_tokens).toBe(10);
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
    expect(completion._request_id).toMatch(/^req_/);
  });

  it('streams the same text and usage as the whole reply', async () => {
    const request = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hello stream' }] };
    const whole = await client.chat.completions.create(request);
    const stream = await client.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    let finish: string | null = null;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(chunks).toBeGreaterThan(3);
    expect(text).toBe(whole.choices[0]!.message.content);
    expect(finish).toBe('stop');
    expect(usage).toEqual(whole.usage);
  });

  it('leaves the usage chunk out without include_usage', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    for await (const chunk of stream) {
      expect(chunk.choices).toHaveLength(1);
      expect(chunk.usage).toBeUndefined();
    }
  });

  it('satisfies the strict chat.completions.stream() helper', async () => {
    const runner = client.chat.completions.stream({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [weatherTool],
    });
    const final = await runner.finalChatCompletion();
    const call = final.choices[0]!.message.tool_calls![0]!;
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.type === 'function' && call.function.name).toBe('get_weather');
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'Paris', unit: 'celsius' });
  });

  it('generates tool-call arguments that fit the schema when a tool is required', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'Plan a trip' }],
      tools: [weatherTool],
      tool_choice: 'required',
    });
    const call = completion.choices[0]!.message.tool_calls![0]!;
    if (call.type !== 'function') throw new Error('expected a function call');
    const validate = new Ajv().compile(weatherTool.function.parameters);
    expect(validate(JSON.parse(call.function.arguments))).toBe(true);
    expect(call.id).toMatch(/^call_/);
    expect(completion.choices[0]!.message.content).toBeNull();
  });

  it('gives n distinct, deterministic choices', async () => {
    const request = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Say something' }], n: 3 };
    const first = await client.chat.completions.create(request);
    const again = await client.chat.completions.create(request);
    const texts = first.choices.map((c) => c.message.content);
    expect(first.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(new Set(texts).size).toBe(3);
    expect(again.choices.map((c) => c.message.content)).toEqual(texts);
  });

  it('streams n choices that each get a role and a finish reason', async () => {
    const runner = client.chat.completions.stream({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Say something' }],
      n: 2,
    });
    const final = await runner.finalChatCompletion();
    expect(final.choices).toHaveLength(2);
    expect(final.choices.every((c) => c.finish_reason === 'stop' && c.message.role === 'assistant')).toBe(true);
  });

  it('answers response_format json_schema with JSON that validates', async () => {
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, rating: { type: 'integer', minimum: 1, maximum: 5 }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['title', 'rating', 'tags'],
      additionalProperties: false,
    };
    const completion = await client.chat.completions.parse({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Review a film' }],
      response_format: { type: 'json_schema', json_schema: { name: 'review', schema, strict: true } },
    });
    const parsed = completion.choices[0]!.message.parsed;
    expect(new Ajv().compile(schema)(parsed)).toBe(true);
  });

  it('returns reasoning_content when reasoning is asked for, and counts it', async () => {
    const completion = await client.chat.completions.create({
      model: 'o4-mini',
      messages: [{ role: 'user', content: 'hello' }],
      reasoning_effort: 'low',
    });
    const message = completion.choices[0]!.message as unknown as { reasoning_content?: string };
    expect(message.reasoning_content).toBe('The user greets me.');
    expect(completion.usage!.completion_tokens_details!.reasoning_tokens).toBeGreaterThan(0);
    const plain = await client.chat.completions.create({ model: 'o4-mini', messages: [{ role: 'user', content: 'hello' }] });
    expect((plain.choices[0]!.message as unknown as { reasoning_content?: string }).reasoning_content).toBeUndefined();
  });

  it('streams reasoning before the content', async () => {
    const stream = await client.chat.completions.create({
      model: 'o4-mini',
      messages: [{ role: 'user', content: 'hello' }],
      reasoning_effort: 'high',
      stream: true,
    });
    let reasoning = '';
    let sawContentBeforeReasoningEnded = false;
    let content = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { reasoning_content?: string; content?: string } | undefined;
      if (delta?.reasoning_content) {
        if (content) sawContentBeforeReasoningEnded = true;
        reasoning += delta.reasoning_content;
      }
      content += delta?.content ?? '';
    }
    expect(reasoning).toBe('The user greets me.');
    expect(content).toBe('Hello from the fixture. How can I help?');
    expect(sawContentBeforeReasoningEnded).toBe(false);
  });

  it('stops at the output limit with finish_reason length', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
      max_completion_tokens: 3,
    });
    expect(completion.choices[0]!.finish_reason).toBe('length');
    expect(completion.usage!.completion_tokens).toBe(3);
  });

  it('raises NotFoundError for an unknown model, naming the known ids', async () => {
    const error = await client.chat.completions
      .create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).message).toContain('gpt-4o-mini');
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
  });

  it('raises BadRequestError naming the field for a wrong type', async () => {
    const error = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], temperature: 'hot' as unknown as number })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('temperature');
  });

  it('raises BadRequestError naming the content of a user message that has none', async () => {
    const messages = [{ role: 'user' }] as unknown as OpenAI.ChatCompletionMessageParam[];
    const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('messages[0].content');
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('missing_required_parameter');
  });
});

describe('chat-completions with keys configured', () => {
  let keyed: TestServer;
  beforeAll(async () => {
    keyed = await startTestServer({ fixtureFiles: { 'keys.yaml': 'keys:\n  - key: sk-good\n' } });
  });
  afterAll(() => keyed.close());

  it('raises AuthenticationError for an unknown key and answers a known one', async () => {
    const bad = new OpenAI({ baseURL: `${keyed.url}/v1`, apiKey: 'sk-bad', maxRetries: 0 });
    const error = await bad.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    const good = new OpenAI({ baseURL: `${keyed.url}/v1`, apiKey: 'sk-good', maxRetries: 0 });
    const completion = await good.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]!.message.content).toBeTruthy();
  });
});

describe('chat-completions through the Vercel AI SDK', () => {
  it('generateText and streamText agree', async () => {
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test' });
    const generated = await generateText({ model: openai.chat('gpt-4o-mini'), prompt: 'hello vercel' });
    expect(generated.text).toBe('Hello from the fixture. How can I help?');
    expect(generated.usage.inputTokens).toBeGreaterThan(0);
    const streamed = streamText({ model: openai.chat('gpt-4o-mini'), prompt: 'hello vercel' });
    let text = '';
    for await (const piece of streamed.textStream) text += piece;
    expect(text).toBe(generated.text);
    expect((await streamed.usage).outputTokens).toBe(generated.usage.outputTokens);
  });

  it('returns tool calls with schema-true arguments', async () => {
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test' });
    const { jsonSchema, tool } = await import('ai');
    const result = await generateText({
      model: openai.chat('gpt-4o-mini'),
      prompt: 'What is the weather in Oslo?',
      tools: { get_weather: tool({ description: 'weather', inputSchema: jsonSchema(weatherTool.function.parameters as never) }) },
    });
    expect(result.toolCalls[0]!.toolName).toBe('get_weather');
    expect(result.toolCalls[0]!.input).toEqual({ city: 'Oslo', unit: 'celsius' });
  });
});
