// LangChain.js chat models pointed at the mock: the OpenAI model on chat-completions and on
// responses, the Anthropic model on messages, the Google model on generate-content. Each one
// invokes, streams, follows a system prompt, calls a tool and answers its result, and returns
// structured output.
import { ChatAnthropic } from '@langchain/anthropic';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, SystemMessage, type AIMessageChunk } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { ChatOpenAI } from '@langchain/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CLIENT_FIXTURES, WEATHER_RESULT } from './fixtures.js';

const MODELS: Array<[string, string, (url: string) => BaseChatModel]> = [
  [
    '@langchain/openai on chat-completions',
    'chat-completions',
    (url) => new ChatOpenAI({ model: 'gpt-4.1', apiKey: 'sk-test', maxRetries: 0, configuration: { baseURL: `${url}/v1` } }),
  ],
  [
    '@langchain/openai with useResponsesApi',
    'responses',
    (url) => new ChatOpenAI({ model: 'gpt-4.1', apiKey: 'sk-test', maxRetries: 0, useResponsesApi: true, configuration: { baseURL: `${url}/v1` } }),
  ],
  [
    '@langchain/anthropic',
    'messages',
    (url) => new ChatAnthropic({ model: 'claude-sonnet-4-6', apiKey: 'sk-test', maxRetries: 0, anthropicApiUrl: url }),
  ],
  [
    '@langchain/google-genai',
    'generate-content',
    (url) => new ChatGoogleGenerativeAI({ model: 'gemini-2.5-flash', apiKey: 'sk-test', maxRetries: 0, baseUrl: url }),
  ],
];

const getWeather = tool(async () => WEATHER_RESULT, {
  name: 'get_weather',
  description: 'The current weather in a city',
  schema: z.object({ city: z.string() }),
});

const Forecast = z.object({ city: z.string(), degrees: z.number().int(), sunny: z.boolean() });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': CLIENT_FIXTURES } });
});
afterAll(() => server.close());

describe.each(MODELS)('%s', (_name, style, modelAt) => {
  let model: BaseChatModel;
  beforeAll(() => {
    model = modelAt(server.url);
  });

  it('invokes and streams the fixture text, in its own style', async () => {
    const whole = await model.invoke('hello there');
    expect(whole.text).toBe('Hello from the fixture. How can I help?');
    const { requests } = (await (await server.admin('/requests')).json()) as { requests: Array<{ style: string }> };
    expect(requests.at(-1)!.style).toBe(style);
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model.stream('hello again')) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe('Hello from the fixture. How can I help?');
  });

  it('sends the system prompt', async () => {
    const reply = await model.invoke([new SystemMessage('You are a pirate.'), new HumanMessage('How is the sea?')]);
    expect(reply.text).toBe('Arr, the sea is calm today.');
  });

  it('calls a tool, and answers once its result is sent back', async () => {
    const withTools = model.bindTools!([getWeather]);
    const question = new HumanMessage('What is the weather in Rome?');
    const call = await withTools.invoke([question]);
    expect(call.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Rome' } })]);
    const result = await getWeather.invoke(call.tool_calls![0]!);
    const answer = await withTools.invoke([question, new AIMessage(call), result]);
    expect(answer.text).toBe('It is 21 degrees in Rome.');
  });

  it('returns structured output that fits the schema', async () => {
    const forecast = await model.withStructuredOutput(Forecast, { name: 'forecast' }).invoke('A forecast for Oslo, please.');
    expect(Forecast.safeParse(forecast).success).toBe(true);
  });
});
