// The generate-content style through the Vercel AI SDK's Google provider (`@ai-sdk/google`).
import { createGoogleGenerativeAI, type GoogleGenerativeAIProvider } from '@ai-sdk/google';
import { APICallError, generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_CHAT_FIXTURES } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
${SHARED_CHAT_FIXTURES}  - name: weather-answer
    match: { tools: [get_weather], conversation: "degrees" }
    priority: 1
    reply:
      text: "The tool says 18 degrees."
`;

const weatherParameters = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};

let server: TestServer;
let google: GoogleGenerativeAIProvider;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES } });
  google = createGoogleGenerativeAI({ baseURL: `${server.url}/v1beta`, apiKey: 'test-key' });
});
afterAll(() => server.close());

const thinking = { google: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } } };

describe('generate-content through @ai-sdk/google', () => {
  it('generateText and streamText agree on text and usage', async () => {
    const generated = await generateText({ model: google('gemini-2.5-flash'), prompt: 'hello vercel' });
    expect(generated.text).toBe('Hello from the fixture. How can I help?');
    expect(generated.finishReason).toBe('stop');
    expect(generated.usage.inputTokens).toBeGreaterThan(0);
    expect(generated.usage.outputTokens).toBe(10);
    const streamed = streamText({ model: google('gemini-2.5-flash'), prompt: 'hello vercel' });
    let text = '';
    for await (const piece of streamed.textStream) text += piece;
    expect(text).toBe(generated.text);
    expect(await streamed.usage).toMatchObject({ inputTokens: generated.usage.inputTokens, outputTokens: generated.usage.outputTokens });
  });

  it('returns a tool call, whole and streamed', async () => {
    const tools = { get_weather: tool({ description: 'weather', inputSchema: jsonSchema(weatherParameters as never) }) };
    const generated = await generateText({ model: google('gemini-2.5-flash'), prompt: 'What is the weather in Oslo?', tools });
    expect(generated.finishReason).toBe('tool-calls');
    expect(generated.toolCalls.map((c) => [c.toolName, c.input])).toEqual([['get_weather', { city: 'Oslo', unit: 'celsius' }]]);
    const streamed = streamText({ model: google('gemini-2.5-flash'), prompt: 'What is the weather in Oslo?', tools });
    const calls = await streamed.toolCalls;
    expect(calls.map((c) => [c.toolName, c.input])).toEqual([['get_weather', { city: 'Oslo', unit: 'celsius' }]]);
    expect(await streamed.finishReason).toBe('tool-calls');
  });

  it('runs the tool and answers the function response in a second step', async () => {
    const result = await generateText({
      model: google('gemini-2.5-flash'),
      prompt: 'What is the weather in Oslo?',
      tools: {
        get_weather: tool({
          description: 'weather',
          inputSchema: jsonSchema<{ city: string }>(weatherParameters as never),
          execute: async ({ city }) => `${city}: 18 degrees`,
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(result.steps).toHaveLength(2);
    expect(result.text).toBe('The tool says 18 degrees.');
  });

  it('returns reasoning with includeThoughts, whole and streamed', async () => {
    const generated = await generateText({ model: google('gemini-2.5-flash'), prompt: 'hello', providerOptions: thinking });
    expect(generated.reasoningText).toBe('The user greets me.');
    expect(generated.text).toBe('Hello from the fixture. How can I help?');
    expect(generated.usage.outputTokenDetails.reasoningTokens).toBeGreaterThan(0);
    const streamed = streamText({ model: google('gemini-2.5-flash'), prompt: 'hello', providerOptions: thinking });
    expect(await streamed.reasoningText).toBe('The user greets me.');
    expect(await streamed.text).toBe(generated.text);
  });

  it('signs a function call made while thinking, and takes the signature back', async () => {
    const result = await generateText({
      model: google('gemini-2.5-flash'),
      prompt: 'What is the weather in Oslo?',
      providerOptions: thinking,
      tools: {
        get_weather: tool({
          description: 'weather',
          inputSchema: jsonSchema<{ city: string }>(weatherParameters as never),
          execute: async ({ city }) => `${city}: 18 degrees`,
        }),
      },
      stopWhen: stepCountIs(3),
    });
    const call = result.steps[0]!.toolCalls[0]!;
    expect(typeof call.providerMetadata?.google?.thoughtSignature).toBe('string');
    expect(result.text).toBe('The tool says 18 degrees.');
  });

  it('surfaces a 404 for an unknown model as an APICallError', async () => {
    const error = await generateText({ model: google('gemini-0-nano'), prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(404);
    expect((error as APICallError).message).toContain('gemini-0-nano');
  });
});
