// The semantic faults (SPEC 21) through openai-node, whole and streamed: each in the shape the
// service gives, the SDK's own helpers meeting it as in production.
import OpenAI from 'openai';
import { zodFunction, zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';

let server: TestServer;
let sessions = 0;
const client = (scenario: string) => new OpenAI({
  baseURL: `${server.url}/v1`,
  apiKey: 'sk-test',
  maxRetries: 0,
  defaultHeaders: { 'x-mock-scenario': scenario, 'x-mock-session': `openai-faults-${sessions++}` },
});

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
      required: ['city', 'unit'],
      additionalProperties: false,
    },
    strict: true,
  },
};
const asked = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'What is the weather in Paris?' }] };
const withTools = { ...asked, tools: [weather], tool_choice: 'required' as const };

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: shippedScenarioFiles() });
});
afterAll(() => server.close());

async function streamed(scenario: string, body: Record<string, unknown>) {
  const stream = client(scenario).chat.completions.stream({ ...(body as typeof asked), stream: true });
  return stream.finalChatCompletion();
}

describe('semantic faults in chat-completions', () => {
  it('invalid_tool_json: arguments that are not JSON, the same whole and streamed', async () => {
    const whole = await client('invalid_tool_json').chat.completions.create(withTools);
    const args = whole.choices[0]!.message.tool_calls![0]!;
    expect(args.type).toBe('function');
    const text = (args as { function: { arguments: string } }).function.arguments;
    expect(() => JSON.parse(text)).toThrow();
    const joined = await streamed('invalid_tool_json', withTools).catch((e: unknown) => e);
    // The stream helper parses strict tools' arguments, and fails as it would in production.
    expect(joined).toBeInstanceOf(Error);
  });

  it('chat.completions.parse raises on a tool call that breaks its schema', async () => {
    const tool = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string(), unit: z.enum(['c', 'f']) }) });
    const error = await client('schema_violation')
      .chat.completions.parse({ ...asked, tools: [tool], tool_choice: 'required' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
  });

  it('chat.completions.parse raises on structured output that breaks the schema; violation picks how', async () => {
    const format = zodResponseFormat(z.object({ city: z.string(), unit: z.enum(['c', 'f']) }), 'weather');
    const error = await client('schema_violation').chat.completions.parse({ ...asked, response_format: format }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    await server.writeScenario('extra.yaml', 'scenarios:\n  - name: extra\n    steps: [ { fault: schema_violation, violation: extra_property } ]\n');
    const raw = await client('extra').chat.completions.create({ ...asked, response_format: format });
    const doc = JSON.parse(raw.choices[0]!.message.content!);
    expect(Object.keys(doc).sort()).toEqual(['city', 'unexpected_property', 'unit']);
  });

  it('unknown_tool and duplicate_tool_ids', async () => {
    const unknown = await client('unknown_tool').chat.completions.create(withTools);
    const call = unknown.choices[0]!.message.tool_calls![0] as { function: { name: string } };
    expect(call.function.name).not.toBe('get_weather');
    const twice = await client('duplicate_tool_ids').chat.completions.create(withTools);
    const ids = twice.choices[0]!.message.tool_calls!.map((c) => c.id);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);
  });

  it('refusal: message.refusal with content null; the stream helper final message carries it', async () => {
    const whole = await client('refusal').chat.completions.create(asked);
    expect(whole.choices[0]!.message.content).toBeNull();
    expect(whole.choices[0]!.message.refusal).toMatch(/can't|not able/);
    expect(whole.choices[0]!.finish_reason).toBe('stop');
    const joined = await streamed('refusal', asked);
    expect(joined.choices[0]!.message.refusal).toBe(whole.choices[0]!.message.refusal);
  });

  it('truncated, empty, content_filter and wrong_language; streamed joins to whole', async () => {
    for (const scenario of ['truncated', 'empty', 'content_filter', 'wrong_language']) {
      const whole = await client(scenario).chat.completions.create(asked);
      const joined = await streamed(scenario, asked);
      expect(joined.choices[0]!.message.content ?? '', scenario).toBe(whole.choices[0]!.message.content ?? '');
      expect(joined.choices[0]!.finish_reason, scenario).toBe(whole.choices[0]!.finish_reason);
    }
    const cut = await client('truncated').chat.completions.create(asked);
    expect(cut.choices[0]!.finish_reason).toBe('length');
    expect(cut.usage!.completion_tokens).toBeGreaterThan(0);
    const empty = await client('empty').chat.completions.create(asked);
    expect(empty.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: '' } });
    const filtered = await client('content_filter').chat.completions.create(asked);
    expect(filtered.choices[0]!.finish_reason).toBe('content_filter');
  });

  it('the same seed gives the same broken bytes', async () => {
    const one = await client('invalid_tool_json').chat.completions.create(withTools);
    const two = await client('invalid_tool_json').chat.completions.create(withTools);
    expect(one.choices[0]!.message.tool_calls!.map((c) => (c as { function: unknown }).function)).toEqual(two.choices[0]!.message.tool_calls!.map((c) => (c as { function: unknown }).function));
  });

  it('a tool fault on a request without tools leaves the answer and says so in the journal', async () => {
    const session = 'not-applicable';
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', maxRetries: 0, defaultHeaders: { 'x-mock-scenario': 'unknown_tool', 'x-mock-session': session } });
    const { data, response } = await openai.chat.completions.create(asked).withResponse();
    expect(data.choices[0]!.message.content).not.toBe('');
    expect(response.headers.get('x-mock-source')).toBe('generated');
    const journal = (await (await server.admin(`/requests?session=${session}`)).json()) as { requests: Array<{ fault: string }> };
    expect(journal.requests[0]!.fault).toBe('unknown_tool (not applicable)');
  });

  it('tool_json_then_ok: one broken call, then normal ones', async () => {
    const openai = client('tool_json_then_ok');
    const first = await openai.chat.completions.create(withTools);
    const second = await openai.chat.completions.create(withTools);
    const text = (call: unknown) => (call as { function: { arguments: string } }).function.arguments;
    expect(() => JSON.parse(text(first.choices[0]!.message.tool_calls![0]))).toThrow();
    expect(JSON.parse(text(second.choices[0]!.message.tool_calls![0]))).toMatchObject({ city: expect.any(String) });
  });
});
