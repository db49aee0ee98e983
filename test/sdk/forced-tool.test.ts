// A request that forces a tool call (pydantic-ai's `output_type` sends one) is never answered with
// text, in any style, through each official SDK: the shipped `weather-answer` fixture (text only)
// does not match it, nor does a fixture calling another tool than the named one; the generator
// calls the forced tool with arguments true to its schema.
import Anthropic from '@anthropic-ai/sdk';
import { FunctionCallingConfigMode, GoogleGenAI } from '@google/genai';
import { Ajv } from 'ajv';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/state/journal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedFixtureFiles } from '../helpers/shipped.js';

const OWN = `
chat:
  - name: summary-with-result
    match: { contains: "summarize the forecast" }
    reply:
      text: "Here is the summary."
      tool_calls:
        - name: final_result
          arguments: { city: Paris, temperature: 18 }
`;

const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const resultSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, temperature: { type: 'number' } },
  required: ['city', 'temperature'],
  additionalProperties: false,
};
const SCHEMAS: Record<string, Record<string, unknown>> = { get_weather: weatherSchema, final_result: resultSchema };
const ajv = new Ajv();

/** Matches the shipped weather-answer fixture (tools: get_weather, conversation: temperature). */
const ASKS_TEMPERATURE = 'What is the temperature in Paris?';
/** Matches the shipped weather-tool fixture, which calls get_weather. */
const ASKS_WEATHER = 'What is the weather in Paris?';

let server: TestServer;

beforeAll(async () => {
  const shipped = shippedFixtureFiles()['shipped/chat.yaml']!;
  server = await startTestServer({ fixtureFiles: { 'shipped/chat.yaml': shipped, 'own.yaml': OWN } });
});
afterAll(() => server.close());

interface Call {
  name: string;
  arguments: unknown;
}

function expectSchemaTrue(calls: readonly Call[], names: readonly string[]): void {
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) {
    expect(names).toContain(call.name);
    expect(ajv.validate(SCHEMAS[call.name]!, call.arguments), ajv.errorsText()).toBe(true);
  }
}

async function lastEntry(session: string): Promise<JournalEntry> {
  const response = await server.admin(`/requests?session=${session}`);
  const { requests } = (await response.json()) as { requests: JournalEntry[] };
  return requests.at(-1)!;
}

/** What each style's SDK sends and reads, reduced to: a prompt and a tool choice in, text and calls out. */
interface Style {
  name: string;
  ask(session: string, prompt: string, choice: 'auto' | 'any' | { name: string }): Promise<{ text: string; calls: Call[] }>;
}

const chatCompletions: Style = {
  name: 'chat-completions (openai)',
  async ask(session, prompt, choice) {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: prompt }],
      tools: Object.entries(SCHEMAS).map(([name, parameters]) => ({ type: 'function' as const, function: { name, parameters } })),
      tool_choice: choice === 'auto' ? 'auto' : choice === 'any' ? 'required' : { type: 'function', function: { name: choice.name } },
    });
    const message = completion.choices[0]!.message;
    const calls = (message.tool_calls ?? []).map((call) => {
      if (call.type !== 'function') throw new Error(`unexpected ${call.type} call`);
      return { name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown };
    });
    return { text: message.content ?? '', calls };
  },
};

const responses: Style = {
  name: 'responses (openai)',
  async ask(session, prompt, choice) {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
    const response = await client.responses.create({
      model: 'gpt-4o-mini',
      input: prompt,
      tools: Object.entries(SCHEMAS).map(([name, parameters]) => ({ type: 'function' as const, name, parameters, strict: true })),
      tool_choice: choice === 'auto' ? 'auto' : choice === 'any' ? 'required' : { type: 'function', name: choice.name },
    });
    const calls = response.output.flatMap((item) => (item.type === 'function_call' ? [{ name: item.name, arguments: JSON.parse(item.arguments) as unknown }] : []));
    return { text: response.output_text, calls };
  },
};

const messages: Style = {
  name: 'messages (@anthropic-ai/sdk)',
  async ask(session, prompt, choice) {
    const client = new Anthropic({ baseURL: server.url, apiKey: 'sk-ant-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
    const message = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 512,
      messages: [{ role: 'user', content: prompt }],
      tools: Object.entries(SCHEMAS).map(([name, schema]) => ({ name, input_schema: schema as Anthropic.Tool.InputSchema })),
      tool_choice: choice === 'auto' ? { type: 'auto' } : choice === 'any' ? { type: 'any' } : { type: 'tool', name: choice.name },
    });
    const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    const calls = message.content.flatMap((block) => (block.type === 'tool_use' ? [{ name: block.name, arguments: block.input }] : []));
    return { text, calls };
  },
};

const generateContent: Style = {
  name: 'generate-content (@google/genai)',
  async ask(session, prompt, choice) {
    const client = new GoogleGenAI({ apiKey: 'g-test', httpOptions: { baseUrl: server.url, headers: { 'x-mock-session': session } } });
    const mode = choice === 'auto' ? FunctionCallingConfigMode.AUTO : FunctionCallingConfigMode.ANY;
    const response = await client.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: prompt,
      config: {
        tools: [{ functionDeclarations: Object.entries(SCHEMAS).map(([name, schema]) => ({ name, parametersJsonSchema: schema })) }],
        toolConfig: { functionCallingConfig: { mode, ...(typeof choice === 'object' && { allowedFunctionNames: [choice.name] }) } },
      },
    });
    const calls = (response.functionCalls ?? []).map((call) => ({ name: call.name!, arguments: call.args }));
    const text = (response.candidates?.[0]?.content?.parts ?? []).flatMap((part) => (part.text ? [part.text] : [])).join('');
    return { text, calls };
  },
};

describe.each([chatCompletions, responses, messages, generateContent])('a forced tool call in $name', (style) => {
  const session = (what: string) => `forced-${style.name.split(' ')[0]}-${what}`;

  it('answers the shipped weather-answer fixture as text when nothing is forced', async () => {
    const answer = await style.ask(session('auto'), ASKS_TEMPERATURE, 'auto');
    expect(answer.text).toBe('It is sunny with a light breeze, as the forecast tool reports.');
  });

  it('never answers a forced call with the text-only fixture: it calls a declared tool, schema-true, and names tool_choice as the near miss', async () => {
    const answer = await style.ask(session('any'), ASKS_TEMPERATURE, 'any');
    expectSchemaTrue(answer.calls, Object.keys(SCHEMAS));
    const entry = await lastEntry(session('any'));
    expect(entry.fixture).toBeNull();
    expect(entry.near_miss).toMatchObject({ fixture: 'weather-answer', failed: ['tool_choice'] });
  });

  it('does not answer a named tool with a fixture that calls another one: the generator calls the named tool', async () => {
    const answer = await style.ask(session('named'), ASKS_WEATHER, { name: 'final_result' });
    expect(answer.text).toBe('');
    expectSchemaTrue(answer.calls, ['final_result']);
  });

  it('answers with a fixture that has text and a call of the forced tool, both', async () => {
    const answer = await style.ask(session('both'), 'Please summarize the forecast.', { name: 'final_result' });
    expect(answer.text).toBe('Here is the summary.');
    expect(answer.calls).toEqual([{ name: 'final_result', arguments: { city: 'Paris', temperature: 18 } }]);
  });
});
