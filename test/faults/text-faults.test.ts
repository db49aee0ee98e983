// The text faults (SPEC 21) in the styles the first tests left: `empty` in every chat style,
// `reasoning_only` in responses and generate-content, `wrong_language` in messages and
// generate-content, whole and streamed through each style's SDK.
import Anthropic from '@anthropic-ai/sdk';
import { FinishReason, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';

let server: TestServer;
let sessions = 0;
const headers = (scenario: string) => ({ 'x-mock-scenario': scenario, 'x-mock-session': `text-faults-${sessions++}` });
const openai = (scenario: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', maxRetries: 0, defaultHeaders: headers(scenario) });
const anthropic = (scenario: string) => new Anthropic({ baseURL: server.url, apiKey: 'sk-ant', maxRetries: 0, defaultHeaders: headers(scenario) });
const genai = (scenario: string) => new GoogleGenAI({ apiKey: 'key', httpOptions: { baseUrl: server.url, headers: headers(scenario) } });

const GERMAN = /\b(Sie|Ihre|den|die|das|ist|für|und)\b/;
const question = 'Tell me about the weather in Paris.';

beforeAll(async () => {
  server = await startTestServer({
    scenarioFiles: { ...shippedScenarioFiles(), 'german.yaml': 'scenarios:\n  - name: german\n    steps: [ { fault: wrong_language, language: de } ]\n' },
  });
});
afterAll(() => server.close());

const gemini = { model: 'gemini-2.5-flash', contents: question };
async function geminiStreamed(scenario: string, body: Parameters<GoogleGenAI['models']['generateContent']>[0]) {
  let text = '';
  let thought = '';
  let finish: string | undefined;
  for await (const chunk of await genai(scenario).models.generateContentStream(body)) {
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      if (part.thought) thought += part.text ?? '';
      else text += part.text ?? '';
    }
    finish = chunk.candidates?.[0]?.finishReason ?? finish;
  }
  return { text, thought, finish };
}

describe('empty: a normal stop with no text and no call, in every chat style', () => {
  it('responses', async () => {
    const whole = await openai('empty').responses.create({ model: 'gpt-4o-mini', input: question });
    expect(whole).toMatchObject({ status: 'completed', output_text: '' });
    const final = await openai('empty').responses.stream({ model: 'gpt-4o-mini', input: question }).finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output_text).toBe('');
    expect(final.output.map((item) => item.type)).toEqual(whole.output.map((item) => item.type));
  });

  it('messages', async () => {
    const ask = { model: 'claude-sonnet-4-6', max_tokens: 1024, messages: [{ role: 'user' as const, content: question }] };
    const whole = await anthropic('empty').messages.create(ask);
    expect(whole.stop_reason).toBe('end_turn');
    expect(whole.content.every((block) => block.type === 'text' && block.text === '')).toBe(true);
    expect(whole.usage.output_tokens).toBe(0);
    const final = await anthropic('empty').messages.stream(ask).finalMessage();
    expect([final.stop_reason, final.content]).toEqual([whole.stop_reason, whole.content]);
  });

  it('generate-content', async () => {
    const whole = await genai('empty').models.generateContent(gemini);
    expect(whole.candidates![0]!.finishReason).toBe(FinishReason.STOP);
    expect(whole.text ?? '').toBe('');
    expect(whole.functionCalls).toBeUndefined();
    expect(await geminiStreamed('empty', gemini)).toEqual({ text: '', thought: '', finish: 'STOP' });
  });
});

describe('reasoning_only: reasoning, then a normal stop with no answer', () => {
  it('responses: a reasoning item and no message text, whole and streamed', async () => {
    const ask = { model: 'o4-mini', input: question, reasoning: { effort: 'medium' as const, summary: 'auto' as const } };
    const whole = await openai('reasoning_only').responses.create(ask);
    expect(whole.status).toBe('completed');
    expect(whole.output[0]!.type).toBe('reasoning');
    expect(whole.output_text).toBe('');
    expect(whole.usage!.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    const final = await openai('reasoning_only').responses.stream(ask).finalResponse();
    expect(final.output.map((item) => item.type)).toEqual(whole.output.map((item) => item.type));
    expect(final.output_text).toBe('');
  });

  it('generate-content: thought parts only, finishReason STOP, whole and streamed', async () => {
    const ask = { ...gemini, config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } } };
    const whole = await genai('reasoning_only').models.generateContent(ask);
    const parts = whole.candidates![0]!.content!.parts!;
    expect(parts.length).toBeGreaterThan(0);
    expect(parts.every((part) => part.thought === true)).toBe(true);
    expect(whole.candidates![0]!.finishReason).toBe(FinishReason.STOP);
    const streamed = await geminiStreamed('reasoning_only', ask);
    expect(streamed).toMatchObject({ text: '', finish: 'STOP' });
    expect(streamed.thought).toBe(parts.map((part) => part.text).join(''));
  });
});

describe('wrong_language: the answer in the language the step picks', () => {
  it('messages, whole and streamed', async () => {
    const ask = { model: 'claude-sonnet-4-6', max_tokens: 1024, messages: [{ role: 'user' as const, content: question }] };
    const whole = await anthropic('german').messages.create(ask);
    const text = whole.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    expect(text).toMatch(GERMAN);
    expect(whole.stop_reason).toBe('end_turn');
    const final = await anthropic('german').messages.stream(ask).finalMessage();
    expect(final.content).toEqual(whole.content);
  });

  it('generate-content, whole and streamed', async () => {
    const whole = await genai('german').models.generateContent(gemini);
    expect(whole.text).toMatch(GERMAN);
    expect(await geminiStreamed('german', gemini)).toEqual({ text: whole.text, thought: '', finish: 'STOP' });
  });
});
