// The tool faults (SPEC 21) in every style that carries them: a streamed answer joined equals the
// whole one under the same fault, read through each style's SDK; and a call cut by the output
// limit in each style's own shape.
import Anthropic from '@anthropic-ai/sdk';
import { FunctionCallingConfigMode, GoogleGenAI, Type } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';

let server: TestServer;
let sessions = 0;
const headers = (scenario: string) => ({ 'x-mock-scenario': scenario, 'x-mock-session': `tool-joins-${sessions++}` });
const openai = (scenario: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', maxRetries: 0, defaultHeaders: headers(scenario) });
const anthropic = (scenario: string) => new Anthropic({ baseURL: server.url, apiKey: 'sk-ant', maxRetries: 0, defaultHeaders: headers(scenario) });
const genai = (scenario: string) => new GoogleGenAI({ apiKey: 'key', httpOptions: { baseUrl: server.url, headers: headers(scenario) } });

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: shippedScenarioFiles() });
});
afterAll(() => server.close());

const question = 'What is the weather in Paris?';
const parameters = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] }, note: { type: 'string' } },
  required: ['city', 'unit', 'note'],
};

/** What a client reads of an answer: its text, its stop, its calls (arguments as sent) and whether their ids repeat. */
interface Read {
  text: string;
  finish: string | null | undefined;
  calls: Array<{ name: string; args: string; status?: string }>;
  sharedId?: boolean;
}

function sharedId(ids: string[]): boolean {
  return ids.length > 1 && new Set(ids).size < ids.length;
}

type Reader = (scenario: string, stream: boolean) => Promise<Read>;

const chatCompletions: Reader = async (scenario, stream) => {
  const body = {
    model: 'gpt-4o-mini',
    messages: [{ role: 'user' as const, content: question }],
    tools: [{ type: 'function' as const, function: { name: 'get_weather', parameters } }],
    tool_choice: 'required' as const,
  };
  if (!stream) {
    const choice = (await openai(scenario).chat.completions.create(body)).choices[0]!;
    const calls = (choice.message.tool_calls ?? []).map((c) => c as { id: string; function: { name: string; arguments: string } });
    return { text: choice.message.content ?? '', finish: choice.finish_reason, calls: calls.map((c) => ({ name: c.function.name, args: c.function.arguments })), sharedId: sharedId(calls.map((c) => c.id)) };
  }
  const read: Read = { text: '', finish: null, calls: [] };
  const ids: string[] = [];
  for await (const chunk of await openai(scenario).chat.completions.create({ ...body, stream: true })) {
    const choice = chunk.choices[0];
    if (!choice) continue;
    read.text += choice.delta.content ?? '';
    for (const delta of choice.delta.tool_calls ?? []) {
      if (delta.id) ids[delta.index] = delta.id;
      read.calls[delta.index] ??= { name: '', args: '' };
      read.calls[delta.index]!.name += delta.function?.name ?? '';
      read.calls[delta.index]!.args += delta.function?.arguments ?? '';
    }
    read.finish = choice.finish_reason ?? read.finish;
  }
  return { ...read, sharedId: sharedId(ids) };
};

const responses: Reader = async (scenario, stream) => {
  const body = { model: 'gpt-4o-mini', input: question, tools: [{ type: 'function' as const, name: 'get_weather', parameters, strict: false }], tool_choice: 'required' as const };
  const readOf = (response: OpenAI.Responses.Response): Read => {
    const calls = response.output.flatMap((item) => (item.type === 'function_call' ? [item] : []));
    return {
      // The SDK adds output_text to what create() returns, not to a stream event's response.
      text: response.output.flatMap((item) => (item.type === 'message' ? item.content.map((c) => (c.type === 'output_text' ? c.text : '')) : [])).join(''),
      finish: response.incomplete_details?.reason ?? response.status,
      calls: calls.map((c) => ({ name: c.name, args: c.arguments, status: c.status })),
      sharedId: sharedId(calls.map((c) => c.call_id)),
    };
  };
  if (!stream) return readOf(await openai(scenario).responses.create(body));
  const deltas = new Map<string, string>();
  let final: OpenAI.Responses.Response | undefined;
  for await (const event of await openai(scenario).responses.create({ ...body, stream: true })) {
    if (event.type === 'response.function_call_arguments.delta') deltas.set(event.item_id, (deltas.get(event.item_id) ?? '') + event.delta);
    if (event.type === 'response.completed' || event.type === 'response.incomplete') final = event.response;
  }
  const read = readOf(final!);
  // The final event's items hold what the deltas joined to.
  const items = final!.output.flatMap((item) => (item.type === 'function_call' ? [item] : []));
  expect(items.map((item) => deltas.get(item.id!))).toEqual(items.map((item) => item.arguments));
  return read;
};

const messages: Reader = async (scenario, stream) => {
  const body = {
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    messages: [{ role: 'user' as const, content: question }],
    tools: [{ name: 'get_weather', input_schema: parameters as Anthropic.Tool.InputSchema }],
    tool_choice: { type: 'any' as const },
  };
  if (!stream) {
    const message = await anthropic(scenario).messages.create(body);
    const uses = message.content.flatMap((block) => (block.type === 'tool_use' ? [block] : []));
    return { text: '', finish: message.stop_reason, calls: uses.map((u) => ({ name: u.name, args: JSON.stringify(u.input) })), sharedId: sharedId(uses.map((u) => u.id)) };
  }
  const read: Read = { text: '', finish: null, calls: [] };
  const ids: string[] = [];
  for await (const event of await anthropic(scenario).messages.create({ ...body, stream: true })) {
    if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
      ids[event.index] = event.content_block.id;
      read.calls[event.index] = { name: event.content_block.name, args: '' };
    }
    if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') read.calls[event.index]!.args += event.delta.partial_json;
    if (event.type === 'message_delta') read.finish = event.delta.stop_reason;
  }
  return { ...read, calls: read.calls.filter(Boolean), sharedId: sharedId(ids.filter(Boolean)) };
};

const generateContent: Reader = async (scenario, stream) => {
  const body = {
    model: 'gemini-2.5-flash',
    contents: question,
    config: {
      tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING }, unit: { type: Type.STRING, enum: ['c', 'f'] }, note: { type: Type.STRING } }, required: ['city', 'unit', 'note'] } }] }],
      toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } },
    },
  };
  const chunks = stream ? [] : [await genai(scenario).models.generateContent(body)];
  if (stream) for await (const chunk of await genai(scenario).models.generateContentStream(body)) chunks.push(chunk);
  const read: Read = { text: '', finish: undefined, calls: [] };
  for (const chunk of chunks) {
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.text && !part.thought) read.text += part.text;
      if (part.functionCall) read.calls.push({ name: part.functionCall.name!, args: JSON.stringify(part.functionCall.args) });
    }
    read.finish = candidate?.finishReason ?? read.finish;
  }
  return read;
};

const STYLES: Array<[string, Reader, string[]]> = [
  ['chat-completions', chatCompletions, ['invalid_tool_json', 'schema_violation', 'unknown_tool', 'duplicate_tool_ids', 'truncated']],
  ['responses', responses, ['invalid_tool_json', 'schema_violation', 'unknown_tool', 'duplicate_tool_ids', 'truncated']],
  ['messages', messages, ['schema_violation', 'unknown_tool', 'duplicate_tool_ids']],
  ['generate-content', generateContent, ['invalid_tool_json', 'schema_violation', 'unknown_tool', 'truncated']],
];

describe('a streamed answer joined equals the whole one under each tool fault', () => {
  for (const [style, read, faults] of STYLES) {
    it(`${style}: ${faults.join(', ')}`, async () => {
      for (const fault of faults) {
        const whole = await read(fault, false);
        expect(await read(fault, true), `${style} ${fault}`).toEqual(whole);
        if (fault === 'duplicate_tool_ids') expect(whole.sharedId, style).toBe(true);
        if (fault === 'unknown_tool') expect(whole.calls[0]!.name, style).not.toBe('get_weather');
      }
    });
  }
});

describe('a tool call cut by the output limit', () => {
  it('chat-completions: arguments that are not JSON, finish_reason length', async () => {
    const cut = await chatCompletions('truncated', false);
    expect(cut.finish).toBe('length');
    expect(() => JSON.parse(cut.calls[0]!.args)).toThrow();
  });

  it('responses: the function_call item incomplete, the response incomplete with max_output_tokens', async () => {
    const cut = await responses('truncated', false);
    expect(cut.finish).toBe('max_output_tokens');
    expect(cut.calls).toHaveLength(1);
    expect(cut.calls[0]!.status).toBe('incomplete');
    expect(() => JSON.parse(cut.calls[0]!.args)).toThrow();
  });

  it('messages: stop_reason max_tokens; the stream carries the cut text, the whole input what of it parsed', async () => {
    const whole = await messages('truncated', false);
    const streamed = await messages('truncated', true);
    expect([whole.finish, streamed.finish]).toEqual(['max_tokens', 'max_tokens']);
    expect(() => JSON.parse(streamed.calls[0]!.args)).toThrow();
    expect(streamed.calls[0]!.args.startsWith(whole.calls[0]!.args.slice(0, -1))).toBe(true);
  });

  it('generate-content: MAX_TOKENS with no call, as the service ends a call it could not finish', async () => {
    const cut = await generateContent('truncated', false);
    expect(cut).toEqual({ text: '', finish: 'MAX_TOKENS', calls: [] });
  });
});
