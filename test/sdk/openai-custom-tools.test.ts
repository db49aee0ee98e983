// Freeform (custom) tools through the openai SDK, in both OpenAI styles (SPEC 20 "Freeform
// tools"): declared, forced by name or through `allowed_tools`, answered with a custom tool call
// whose input fits the tool's grammar, from a fixture's `input:` or the generator; earlier custom
// calls in the history are taken; and in responses, forced shell and apply_patch tools and
// functions inside a namespace get calls of their own kind, never text.
import OpenAI from 'openai';
import { RE2JS } from 're2js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
  - name: patch-the-file
    match: { contains: "write the greeting file" }
    reply:
      tool_calls:
        - name: apply_patch
          input: "*** Begin Patch\\n*** Add File: hello.txt\\n+hello\\n*** End Patch"
  - name: after-the-patch
    match: { contains: "second turn", tools: [apply_patch] }
    reply: { text: "Patched." }
`;

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'custom.yaml': FIXTURES } });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

const LARK = `
start: "SELECT " column " FROM " table [" LIMIT " LIMIT]
column: "id" | "name" | "email"
table: "users" | "orders"
LIMIT: DIGIT ~ 1..3
%import common.DIGIT
`;
const LARK_PATTERN = /^SELECT (id|name|email) FROM (users|orders)( LIMIT [0-9]{1,3})?$/;

const sqlTool = { type: 'custom' as const, custom: { name: 'sql', format: { type: 'grammar' as const, grammar: { syntax: 'lark' as const, definition: LARK } } } };
const codeTool = { type: 'custom' as const, custom: { name: 'code', format: { type: 'grammar' as const, grammar: { syntax: 'regex' as const, definition: '(ok|fail)-[a-z]{2,4}' } } } };
const weather = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } };
const user = (content: string) => [{ role: 'user' as const, content }];

describe('chat-completions custom tools', () => {
  it('answers a forced lark-grammar tool with a custom tool call whose input is a sentence of the grammar', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: user('list the users'),
      tools: [sqlTool, weather],
      tool_choice: { type: 'custom', custom: { name: 'sql' } },
    });
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(call.type).toBe('custom');
    if (call.type !== 'custom') return;
    expect(call.custom.name).toBe('sql');
    expect(call.custom.input).toMatch(LARK_PATTERN);
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('answers a regex-grammar tool chosen through allowed_tools (required) with input the regex matches whole', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: user('run the code'),
      tools: [codeTool, weather],
      tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [{ type: 'custom', custom: { name: 'code' } }] } },
    });
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'custom' && RE2JS.matches('(ok|fail)-[a-z]{2,4}', call.custom.input)).toBe(true);
  });

  it('streams a custom tool call whole in one delta', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: user('list the users'),
      tools: [sqlTool],
      tool_choice: { type: 'custom', custom: { name: 'sql' } },
      stream: true,
    });
    const calls: unknown[] = [];
    for await (const chunk of stream) calls.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ index: 0, type: 'custom', custom: { name: 'sql', input: expect.stringMatching(LARK_PATTERN) } });
  });

  it("answers a fixture's input: as a custom tool call, and takes it back in the history", async () => {
    const patch = { type: 'custom' as const, custom: { name: 'apply_patch' } };
    const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: user('write the greeting file'), tools: [patch] });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call).toMatchObject({ type: 'custom', custom: { name: 'apply_patch', input: expect.stringContaining('*** Add File: hello.txt') } });
    const second = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      tools: [patch],
      messages: [
        { role: 'user', content: 'write the greeting file' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: 'Done' },
        { role: 'user', content: 'second turn' },
      ],
    });
    expect(second.choices[0]!.message.content).toBe('Patched.');
  });

  it('takes a custom voice by id and refuses a named custom tool that is not declared', async () => {
    const done = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: user('hi'), audio: { voice: { id: 'voice_123' }, format: 'wav' } });
    expect(done.choices[0]!.message.role).toBe('assistant');
    await expect(
      client.chat.completions.create({ model: 'gpt-4o-mini', messages: user('hi'), tools: [weather], tool_choice: { type: 'custom', custom: { name: 'sql' } } }),
    ).rejects.toMatchObject({ status: 400, param: 'tool_choice' });
  });

  it('refuses a forced tool whose grammar the generator cannot satisfy with a 400 naming the tool', async () => {
    const recursive = { type: 'custom' as const, custom: { name: 'nested', format: { type: 'grammar' as const, grammar: { syntax: 'lark' as const, definition: 'start: "(" start ")" | "x"' } } } };
    const error = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: user('nest'), tools: [recursive], tool_choice: { type: 'custom', custom: { name: 'nested' } } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400 });
    expect((error as Error).message).toContain("'nested'");
  });
});

describe('responses: forced tools get calls of their own kind', () => {
  it('answers a forced custom tool with a custom_tool_call, whole and streamed', async () => {
    const tools = [{ type: 'custom' as const, name: 'sql', format: { type: 'grammar' as const, syntax: 'lark' as const, definition: LARK } }];
    const response = await client.responses.create({ model: 'gpt-4o-mini', input: 'list the users', tools, tool_choice: { type: 'custom', name: 'sql' } });
    expect(response.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', name: 'sql', input: expect.stringMatching(LARK_PATTERN) })]);
    expect(response.output_text).toBe('');
    const stream = client.responses.stream({ model: 'gpt-4o-mini', input: 'list the users', tools, tool_choice: { type: 'custom', name: 'sql' } });
    const deltas: string[] = [];
    stream.on('response.custom_tool_call_input.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    const item = final.output[0]!;
    expect(item.type === 'custom_tool_call' && item.input).toBe(deltas.join(''));
  });

  it('answers forced shell and apply_patch tools with shell_call and apply_patch_call items', async () => {
    const shell = await client.responses.create({ model: 'gpt-4o-mini', input: 'look around', tools: [{ type: 'shell' }], tool_choice: { type: 'shell' } });
    expect(shell.output).toEqual([
      expect.objectContaining({ type: 'shell_call', status: 'completed', action: expect.objectContaining({ commands: [expect.any(String)] }) }),
    ]);
    const patch = await client.responses.create({ model: 'gpt-4o-mini', input: 'make notes', tools: [{ type: 'apply_patch' }], tool_choice: { type: 'apply_patch' } });
    expect(patch.output).toEqual([
      expect.objectContaining({ type: 'apply_patch_call', operation: expect.objectContaining({ type: 'create_file', path: expect.any(String) }) }),
    ]);
  });

  it('calls a forced function declared inside a namespace, naming the namespace', async () => {
    const response = await client.responses.create({
      model: 'gpt-4o-mini',
      input: 'weather please',
      tools: [{ type: 'namespace', name: 'forecast', description: 'Weather', tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }] }],
      tool_choice: { type: 'function', name: 'get_weather' },
    });
    expect(response.output).toEqual([expect.objectContaining({ type: 'function_call', name: 'get_weather', namespace: 'forecast' })]);
  });

  it("answers a fixture's input: as a custom_tool_call and takes custom calls and their output back as input", async () => {
    const tools = [{ type: 'custom' as const, name: 'apply_patch' }];
    const first = await client.responses.create({ model: 'gpt-4o-mini', input: 'write the greeting file', tools });
    const call = first.output[0]!;
    expect(call).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: expect.stringContaining('hello.txt') });
    if (call.type !== 'custom_tool_call') return;
    const second = await client.responses.create({
      model: 'gpt-4o-mini',
      tools,
      input: [
        { role: 'user', content: 'write the greeting file' },
        { type: 'custom_tool_call', call_id: call.call_id, name: call.name, input: call.input },
        { type: 'custom_tool_call_output', call_id: call.call_id, output: 'Done' },
        { role: 'user', content: 'second turn' },
      ],
    });
    expect(second.output_text).toBe('Patched.');
  });
});
