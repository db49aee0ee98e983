// One fixture, four styles: the same conversation through each official SDK gets the same text,
// the same reasoning, the same tool-call arguments and the same usage.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
  - name: trip
    match: { contains: "weather in", tools: [get_weather] }
    reply:
      reasoning: "The user wants the weather; I will call the tool."
      text: "Let me look that up."
      tool_calls:
        - name: get_weather
          arguments: { city: Paris, days: 3 }
  - name: trip-answer
    match: { conversation: "18 degrees" }
    priority: 1
    reply:
      text: "Paris will be mild: 18 degrees and sunny."
`;

const SYSTEM = 'You are a travel agent. Be brief.';
const QUESTION = 'What is the weather in Paris this week?';
const TOOL_RESULT = '{"forecast":"18 degrees and sunny"}';
const parameters = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer' } },
  required: ['city', 'days'],
};
const DESCRIPTION = 'Weather forecast for a city';

interface Outcome {
  text: string;
  reasoning: string;
  calls: Array<{ name: string; arguments: unknown }>;
  inputTokens: number;
  /** Everything the model produced, reasoning included. */
  outputTokens: number;
  reasoningTokens: number;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'trip.yaml': FIXTURES } });
});
afterAll(() => server.close());

async function viaChatCompletions(withResult: boolean, model = 'gpt-4.1', question = QUESTION): Promise<Outcome> {
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 });
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: question },
  ];
  if (withResult) {
    messages.push(
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","days":3}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: TOOL_RESULT },
    );
  }
  const completion = await client.chat.completions.create({
    model,
    messages,
    reasoning_effort: 'low',
    tools: [{ type: 'function', function: { name: 'get_weather', description: DESCRIPTION, parameters } }],
  });
  const message = completion.choices[0]!.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string };
  return {
    text: message.content ?? '',
    reasoning: message.reasoning_content ?? '',
    calls: (message.tool_calls ?? []).map((c) => (c.type === 'function' ? { name: c.function.name, arguments: JSON.parse(c.function.arguments) } : { name: '', arguments: null })),
    inputTokens: completion.usage!.prompt_tokens,
    outputTokens: completion.usage!.completion_tokens,
    reasoningTokens: completion.usage!.completion_tokens_details!.reasoning_tokens!,
  };
}

async function viaResponses(withResult: boolean, model = 'gpt-4.1', question = QUESTION): Promise<Outcome> {
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 });
  const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: question }];
  if (withResult) {
    input.push(
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","days":3}' },
      { type: 'function_call_output', call_id: 'call_1', output: TOOL_RESULT },
    );
  }
  const response = await client.responses.create({
    model,
    instructions: SYSTEM,
    input,
    reasoning: { effort: 'low', summary: 'detailed' },
    tools: [{ type: 'function', name: 'get_weather', description: DESCRIPTION, parameters, strict: false }],
  });
  const reasoning = response.output.flatMap((item) => (item.type === 'reasoning' ? item.summary.map((s) => s.text) : [])).join('');
  return {
    text: response.output_text,
    reasoning,
    calls: response.output.flatMap((item) => (item.type === 'function_call' ? [{ name: item.name, arguments: JSON.parse(item.arguments) }] : [])),
    inputTokens: response.usage!.input_tokens,
    outputTokens: response.usage!.output_tokens,
    reasoningTokens: response.usage!.output_tokens_details.reasoning_tokens,
  };
}

async function viaMessages(withResult: boolean, model = 'claude-sonnet-4-6', question = QUESTION): Promise<Outcome> {
  const client = new Anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: question }];
  if (withResult) {
    messages.push(
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris', days: 3 } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: TOOL_RESULT }] },
    );
  }
  const message = await client.messages.create({
    model,
    max_tokens: 4096,
    system: SYSTEM,
    messages,
    thinking: { type: 'enabled', budget_tokens: 1024 },
    tools: [{ name: 'get_weather', description: DESCRIPTION, input_schema: parameters as Anthropic.Tool.InputSchema }],
  });
  const outcome = { text: '', reasoning: '', calls: [] as Outcome['calls'] };
  for (const block of message.content) {
    if (block.type === 'text') outcome.text += block.text;
    if (block.type === 'thinking') outcome.reasoning += block.thinking;
    if (block.type === 'tool_use') outcome.calls.push({ name: block.name, arguments: block.input });
  }
  return { ...outcome, inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens, reasoningTokens: NaN };
}

async function viaGenerateContent(withResult: boolean, model = 'gemini-2.5-flash', question = QUESTION): Promise<Outcome> {
  const client = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: server.url } });
  const contents = [{ role: 'user', parts: [{ text: question }] }];
  if (withResult) {
    contents.push(
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris', days: 3 } } } as never] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: JSON.parse(TOOL_RESULT) } } as never] },
    );
  }
  const response = await client.models.generateContent({
    model,
    contents,
    config: {
      systemInstruction: SYSTEM,
      thinkingConfig: { includeThoughts: true },
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: DESCRIPTION, parametersJsonSchema: parameters }] }],
    },
  });
  const parts = response.candidates![0]!.content!.parts!;
  const usage = response.usageMetadata!;
  return {
    text: parts.filter((p) => p.text !== undefined && !p.thought).map((p) => p.text).join(''),
    reasoning: parts.filter((p) => p.thought).map((p) => p.text).join(''),
    calls: parts.flatMap((p) => (p.functionCall ? [{ name: p.functionCall.name!, arguments: p.functionCall.args }] : [])),
    inputTokens: usage.promptTokenCount!,
    outputTokens: usage.candidatesTokenCount! + usage.thoughtsTokenCount!,
    reasoningTokens: usage.thoughtsTokenCount!,
  };
}

describe('one fixture, four styles', () => {
  it('gives the same text, reasoning, tool call and usage for the first turn', async () => {
    const [chat, responses, messages, gemini] = await Promise.all([viaChatCompletions(false), viaResponses(false), viaMessages(false), viaGenerateContent(false)]);
    const expected = {
      text: 'Let me look that up.',
      reasoning: 'The user wants the weather; I will call the tool.',
      calls: [{ name: 'get_weather', arguments: { city: 'Paris', days: 3 } }],
    };
    for (const outcome of [chat, responses, messages, gemini]) expect(outcome).toMatchObject(expected);
    for (const outcome of [responses, messages, gemini]) {
      expect(outcome.inputTokens).toBe(chat.inputTokens);
      expect(outcome.outputTokens).toBe(chat.outputTokens);
    }
    expect(chat.reasoningTokens).toBeGreaterThan(0);
    expect(responses.reasoningTokens).toBe(chat.reasoningTokens);
    expect(gemini.reasoningTokens).toBe(chat.reasoningTokens);
  });

  it('gives the same answer, generated reasoning and usage once the tool result comes back', async () => {
    // The fixture has no reasoning, so it is generated: from the conversation and the model, the
    // same in every style when the model is the same.
    const model = 'gemini-2.5-flash';
    const [chat, responses, messages, gemini] = await Promise.all([
      viaChatCompletions(true, model),
      viaResponses(true, model),
      viaMessages(true, model),
      viaGenerateContent(true, model),
    ]);
    for (const outcome of [chat, responses, messages, gemini]) {
      expect(outcome.text).toBe('Paris will be mild: 18 degrees and sunny.');
      expect(outcome.calls).toEqual([]);
      expect(outcome.reasoning).toBe(chat.reasoning);
    }
    expect(chat.reasoning.length).toBeGreaterThan(0);
    for (const outcome of [responses, messages, gemini]) {
      expect(outcome.inputTokens).toBe(chat.inputTokens);
      expect(outcome.outputTokens).toBe(chat.outputTokens);
    }
  });

  it('generates the same reply in every style when no fixture matches', async () => {
    const question = 'Tell me about lighthouses.';
    const model = 'gpt-4.1';
    const outcomes = await Promise.all([
      viaChatCompletions(false, model, question),
      viaResponses(false, model, question),
      viaMessages(false, model, question),
      viaGenerateContent(false, model, question),
    ]);
    const [chat] = outcomes;
    expect(chat!.text.length).toBeGreaterThan(0);
    for (const outcome of outcomes) {
      expect(outcome.text).toBe(chat!.text);
      expect(outcome.reasoning).toBe(chat!.reasoning);
      expect(outcome.inputTokens).toBe(chat!.inputTokens);
      expect(outcome.outputTokens).toBe(chat!.outputTokens);
    }
  });
});
