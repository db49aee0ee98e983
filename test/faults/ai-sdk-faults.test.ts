// refusal and truncated through the Vercel AI SDK's providers (@ai-sdk/openai for chat
// completions and responses, @ai-sdk/anthropic, @ai-sdk/google): generateText and streamText
// meet each fault as they would the service's, and agree with each other.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText, type LanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';

let server: TestServer;
let sessions = 0;
const headers = (scenario: string) => ({ 'x-mock-scenario': scenario, 'x-mock-session': `ai-sdk-faults-${sessions++}` });

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: shippedScenarioFiles() });
});
afterAll(() => server.close());

const MODELS: Record<string, (scenario: string) => LanguageModel> = {
  'chat-completions': (scenario) => createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', headers: headers(scenario) }).chat('gpt-4o-mini'),
  responses: (scenario) => createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', headers: headers(scenario) }).responses('gpt-4o-mini'),
  messages: (scenario) => createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'sk-ant', headers: headers(scenario) })('claude-sonnet-4-6'),
  'generate-content': (scenario) => createGoogleGenerativeAI({ baseURL: `${server.url}/v1beta`, apiKey: 'key', headers: headers(scenario) })('gemini-2.5-flash'),
};

const prompt = 'Write a few sentences about the weather in Paris.';

async function both(model: (scenario: string) => LanguageModel, scenario: string) {
  const whole = await generateText({ model: model(scenario), prompt, maxRetries: 0 });
  const stream = streamText({ model: model(scenario), prompt, maxRetries: 0 });
  const streamed = { text: await stream.text, finishReason: await stream.finishReason };
  return { whole: { text: whole.text, finishReason: whole.finishReason }, streamed };
}

describe('semantic faults through the Vercel AI SDK', () => {
  for (const [style, model] of Object.entries(MODELS)) {
    it(`${style}: truncated is a length stop with the text cut, refusal as the provider reads it`, async () => {
      const cut = await both(model, 'truncated');
      expect(cut.whole.finishReason).toBe('length');
      expect(cut.whole.text.length).toBeGreaterThan(0);
      expect(cut.streamed).toEqual(cut.whole);
      const refused = await both(model, 'refusal');
      expect(refused.whole.finishReason).toBe('content-filter');
      // Gemini's SAFETY stop carries no text; the other styles carry the refusal's words.
      expect(refused.whole.text).toMatch(style === 'generate-content' ? /^$/ : /can't|not able/);
      expect(refused.streamed).toEqual(refused.whole);
    });
  }
});
