// The semantic faults (SPEC 21) through @anthropic-ai/sdk, @google/genai and openai-node's
// responses, whole and streamed, each in the shape its service gives.
import Anthropic from '@anthropic-ai/sdk';
import { FinishReason, GoogleGenAI, Type } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';

let server: TestServer;
let sessions = 0;
const headers = (scenario: string) => ({ 'x-mock-scenario': scenario, 'x-mock-session': `style-faults-${sessions++}` });
const anthropic = (scenario: string) => new Anthropic({ baseURL: server.url, apiKey: 'sk-ant', maxRetries: 0, defaultHeaders: headers(scenario) });
const genai = (scenario: string) => new GoogleGenAI({ apiKey: 'key', httpOptions: { baseUrl: server.url, headers: headers(scenario) } });
const openai = (scenario: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', maxRetries: 0, defaultHeaders: headers(scenario) });

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: shippedScenarioFiles() });
});
afterAll(() => server.close());

const schema = { type: 'object' as const, properties: { city: { type: 'string' as const } }, required: ['city'] };
const claude = {
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'Weather in Paris?' }],
};
const claudeTools = { ...claude, tools: [{ name: 'get_weather', input_schema: schema }], tool_choice: { type: 'any' as const } };

describe('semantic faults in the messages style', () => {
  it('refusal: stop_reason refusal with stop_details; the stream helper final message says the same', async () => {
    const whole = await anthropic('refusal').messages.create(claude);
    expect(whole.stop_reason).toBe('refusal');
    expect(whole.stop_details).toMatchObject({ type: 'refusal' });
    const final = await anthropic('refusal').messages.stream(claude).finalMessage();
    expect(final.stop_reason).toBe('refusal');
    expect(final.content).toEqual(whole.content);
  });

  it('invalid_tool_json applies only to a stream: its input_json_delta pieces do not join to JSON', async () => {
    const pieces: string[] = [];
    const stream = anthropic('invalid_tool_json').messages.stream(claudeTools);
    stream.on('streamEvent', (event) => {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') pieces.push(event.delta.partial_json);
    });
    await stream.finalMessage().catch(() => undefined);
    expect(() => JSON.parse(pieces.join(''))).toThrow();
    const whole = await anthropic('invalid_tool_json').messages.create(claudeTools).withResponse();
    expect(whole.response.headers.get('x-mock-source')).toBe('generated');
  });

  it('truncated, content_filter, duplicate_tool_ids and reasoning_only', async () => {
    expect((await anthropic('truncated').messages.create(claude)).stop_reason).toBe('max_tokens');
    const filtered = await anthropic('content_filter').messages.create(claude);
    expect(filtered).toMatchObject({ stop_reason: 'refusal', stop_details: { type: 'refusal' }, content: [] });
    const twice = await anthropic('duplicate_tool_ids').messages.create(claudeTools);
    const ids = twice.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
    const thinking = { ...claude, max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 1024 } };
    const only = await anthropic('reasoning_only').messages.create(thinking);
    expect(only.content.map((block) => block.type)).toEqual(['thinking']);
    expect(only.stop_reason).toBe('end_turn');
  });
});

describe('semantic faults in the generate-content style', () => {
  const ask = { model: 'gemini-2.5-flash', contents: 'Weather in Paris?' };
  const withTools = {
    ...ask,
    config: { tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] } }] }] },
  };

  it('invalid_tool_json is MALFORMED_FUNCTION_CALL with no call; unknown_tool UNEXPECTED_TOOL_CALL with the call', async () => {
    const malformed = await genai('invalid_tool_json').models.generateContent(withTools);
    expect(malformed.candidates![0]!.finishReason).toBe(FinishReason.MALFORMED_FUNCTION_CALL);
    expect(malformed.functionCalls).toBeUndefined();
    const unexpected = await genai('unknown_tool').models.generateContent(withTools);
    expect(unexpected.candidates![0]!.finishReason).toBe(FinishReason.UNEXPECTED_TOOL_CALL);
    expect(unexpected.functionCalls![0]!.name).not.toBe('get_weather');
  });

  it('refusal is SAFETY with a blocked HIGH rating; content_filter a blocked prompt with no candidates', async () => {
    const refused = await genai('refusal').models.generateContent(ask);
    expect(refused.candidates![0]!.finishReason).toBe(FinishReason.SAFETY);
    expect(refused.candidates![0]!.safetyRatings).toContainEqual(expect.objectContaining({ probability: 'HIGH', blocked: true }));
    expect(refused.text).toBeUndefined();
    const blocked = await genai('content_filter').models.generateContent(ask);
    expect(blocked.promptFeedback?.blockReason).toBe('SAFETY');
    expect(blocked.candidates).toBeUndefined();
    const chunks = [];
    for await (const chunk of await genai('content_filter').models.generateContentStream(ask)) chunks.push(chunk);
    expect(chunks.map((c) => c.promptFeedback?.blockReason)).toEqual(['SAFETY']);
  });

  it('truncated ends with MAX_TOKENS; streamed it joins to the whole text', async () => {
    const whole = await genai('truncated').models.generateContent(ask);
    expect(whole.candidates![0]!.finishReason).toBe(FinishReason.MAX_TOKENS);
    let joined = '';
    for await (const chunk of await genai('truncated').models.generateContentStream(ask)) joined += chunk.text ?? '';
    expect(joined).toBe(whole.text);
  });
});

describe('semantic faults in the responses style', () => {
  const ask = { model: 'gpt-4o-mini', input: 'Weather in Paris?' };

  it('refusal is a refusal content part, whole and in the stream helper final response', async () => {
    const whole = await openai('refusal').responses.create(ask);
    const message = whole.output.find((item) => item.type === 'message')!;
    expect(message.type === 'message' && message.content[0]!.type).toBe('refusal');
    const final = await openai('refusal').responses.stream(ask).finalResponse();
    const streamedMessage = final.output.find((item) => item.type === 'message')!;
    expect(streamedMessage.type === 'message' && streamedMessage.content[0]).toMatchObject(message.type === 'message' ? message.content[0]! : {});
  });

  it('content_filter is incomplete with reason content_filter; truncated max_output_tokens', async () => {
    const filtered = await openai('content_filter').responses.create(ask);
    expect(filtered).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } });
    const cut = await openai('truncated').responses.create(ask);
    expect(cut).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });

  it('wrong_language answers in the language the step picks', async () => {
    await server.writeScenario('german.yaml', 'scenarios:\n  - name: german\n    steps: [ { fault: wrong_language, language: de } ]\n');
    const answer = await openai('german').responses.create(ask);
    expect(answer.output_text).toMatch(/\b(Sie|Ihre|den|die|ist|für)\b/);
  });
});
