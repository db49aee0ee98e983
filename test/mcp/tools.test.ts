// The MCP tools over both transports, driven by the MCP SDK's own client against a mock on port
// 0: each tool's effect is checked through the HTTP admin API and through an official SDK, and a
// bad input to any tool is a tool error naming the field, after which the server keeps answering.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import OpenAI, { RateLimitError, toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { call, connect, ok, type Transport } from './connect.js';

const TOKEN = 'mcp-secret';
const SCENARIOS = `scenarios:
  - name: rate_limit
    description: 429 with retry-after 1.
    steps:
      - { error: rate_limit, headers: { retry-after: "1" } }
`;
const FIXTURES = `chat:
  - name: weather
    match: { contains: weather }
    reply: { text: It is sunny. }
`;

let server: TestServer;

beforeAll(ensureBuilt, 300_000);
beforeAll(async () => {
  server = await startTestServer({ clock: '2030-01-01T00:00:00Z', adminToken: TOKEN, scenarioFiles: { 'errors.yaml': SCENARIOS }, fixtureFiles: { 'chat.yaml': FIXTURES } });
});
afterAll(() => server.close());

async function admin<T>(path: string): Promise<T> {
  const response = await fetch(`${server.url}/__admin${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

function openai(session: string): OpenAI {
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
}

const ask = (session: string, text: string) => openai(session).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] });

/** The properties each tool's input schema offers (SPEC 14). */
const INPUTS: Record<string, string[]> = {
  status: [],
  list_fixtures: ['session'],
  add_fixture: ['yaml', 'session', 'file'],
  list_scenarios: [],
  list_faults: [],
  set_scenario: ['name', 'session'],
  clear_scenario: ['session'],
  journal: ['session', 'path', 'style', 'model', 'status', 'limit'],
  explain_request: ['id'],
  fixture_from_request: ['id', 'file'],
  advance_clock: ['advance_ms', 'set'],
  reset: ['session'],
  verify: ['expect', 'session'],
  usage: ['session'],
};
const REQUIRED: Record<string, string[]> = { verify: ['expect'], add_fixture: ['yaml'], set_scenario: ['name'], explain_request: ['id'], fixture_from_request: ['id'] };

/** Each tool with inputs it must refuse, and what the refusal must name. */
const MISTAKES: Array<[string, Record<string, unknown>, string]> = [
  ['status', { verbose: true }, "Invalid value for 'arguments'"],
  ['list_fixtures', { session: 5 }, "Invalid value for 'session'"],
  ['list_fixtures', { session: 'nobody' }, "the session 'nobody' holds no state. Known sessions: "],
  ['add_fixture', {}, "Missing required argument 'yaml'"],
  ['add_fixture', { yaml: 'chat: [' }, "Invalid value for 'yaml': line 1"],
  ['add_fixture', { yaml: 'chat:\n  - reply: 5\n' }, 'chat[0].reply'],
  ['add_fixture', { yaml: 'images: []\n' }, 'Only chat fixtures can be added at run time'],
  ['add_fixture', { yaml: 'chat: []\n', file: '../outside.yaml' }, '"file" "../outside.yaml" must be a name in the fixtures directory'],
  ['add_fixture', { yaml: 'chat: []\n', file: 'a.yaml', session: 's' }, "Invalid value for 'file'"],
  ['list_scenarios', { all: 1 }, "Invalid value for 'arguments'"],
  ['list_faults', { kind: 'semantic' }, "Invalid value for 'arguments'"],
  ['set_scenario', {}, "Missing required argument 'name'"],
  ['set_scenario', { name: 'meltdown' }, 'Known scenarios: rate_limit'],
  ['clear_scenario', { session: 1 }, "Invalid value for 'session'"],
  ['journal', { status: 'teapot' }, "Invalid value for 'status'"],
  ['journal', { limit: 0 }, "Invalid value for 'limit'"],
  ['journal', { session: 'nobody' }, "the session 'nobody' holds no state"],
  ['explain_request', {}, "Missing required argument 'id'"],
  ['explain_request', { id: 'req_nope' }, "Invalid value for 'id': no journal entry has the id 'req_nope'"],
  ['fixture_from_request', { id: 7 }, "Invalid value for 'id'"],
  ['fixture_from_request', { id: 'req_nope', file: 'x.yaml' }, "no journal entry has the id 'req_nope'"],
  ['advance_clock', {}, 'advance_ms'],
  ['advance_clock', { advance_ms: -1 }, "Invalid value for 'advance_ms'"],
  ['advance_clock', { set: 'yesterday' }, "Invalid value for 'set'"],
  ['advance_clock', { advance_ms: 1, set: '2030-01-01' }, 'not both'],
  ['reset', { session: ['a'] }, "Invalid value for 'session'"],
  ['verify', {}, "Missing required argument 'expect'"],
  ['verify', { expect: [{ requests: { status: 'ok' } }] }, "Invalid value for 'expect[0].requests.status'"],
  ['verify', { expect: [{ no_generated: true }], session: 'nobody' }, "the session 'nobody' holds no state"],
  ['usage', { session: 'nobody' }, "the session 'nobody' holds no state"],
];

describe.each<Transport>(['http', 'stdio'])('the MCP tools over %s', (transport) => {
  let client: Client;
  const session = `${transport}-app`;

  beforeAll(async () => {
    client = await connect(transport, server.url, TOKEN);
  });
  afterAll(() => client.close());

  it('lists every tool with a description and a JSON Schema of its input', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(INPUTS).sort());
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe('object');
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual([...INPUTS[tool.name]!].sort());
      expect(tool.inputSchema.required ?? []).toEqual(REQUIRED[tool.name] ?? []);
    }
  });

  it('status names the files and the reload count; list_scenarios each scenario with its description', async () => {
    const status = await ok(client, 'status');
    expect(status).toContain('The mock is ok.');
    expect(status).toMatch(/reload count \d+/);
    expect(status).toContain('chat.yaml');
    expect(await ok(client, 'list_scenarios')).toContain('- rate_limit: 429 with retry-after 1.');
    const faults = await ok(client, 'list_faults');
    expect(faults).toContain('- cut_stream (transport;');
    expect(faults).toMatch(/- invalid_tool_json \(semantic; chat-completions, responses, messages, generate-content[,)]/);
  });

  it('set_scenario makes an OpenAI SDK call get the 429; clear_scenario ends it', async () => {
    expect(await ok(client, 'set_scenario', { name: 'rate_limit', session })).toContain(`'rate_limit' is now active for the session '${session}'`);
    const { sessions } = await admin<{ sessions: Array<{ session: string; scenario: string | null }> }>('/scenarios');
    expect(sessions).toContainEqual({ session, scenario: 'rate_limit' });
    await expect(ask(session, 'hello')).rejects.toBeInstanceOf(RateLimitError);
    await ok(client, 'clear_scenario', { session });
    expect((await ask(session, 'hello')).choices[0]!.message.content).toBeTruthy();
  });

  it('journal shows the requests as a table, and explain_request says why each was answered so', async () => {
    const s = `${transport}-journal`;
    await ok(client, 'set_scenario', { name: 'rate_limit', session: s });
    await expect(ask(s, 'weather please')).rejects.toBeInstanceOf(RateLimitError);
    await ok(client, 'clear_scenario', { session: s });
    await ask(s, 'weather please');
    await ask(s, 'something else');
    const { requests } = await admin<{ requests: Array<{ id: string }> }>(`/requests?session=${s}`);
    expect(requests).toHaveLength(3);

    const table = await ok(client, 'journal', { session: s });
    expect(table).toContain('id | time | session | method | path | status | source');
    for (const { id } of requests) expect(table).toContain(id);
    expect(table).toMatch(/\| 429 \| scenario:rate_limit/);
    expect(await ok(client, 'journal', { session: s, status: 429 })).toContain('1 matching request,');
    expect(await ok(client, 'journal', { session: s, limit: 1 })).toContain('The latest 1 of 3');

    const [limited, matched, generated] = requests.map((r) => r.id);
    const why429 = await ok(client, 'explain_request', { id: limited! });
    expect(why429).toContain("The scenario 'rate_limit' was active and its step 0");
    expect(why429).toContain("The fault 'rate_limit' fired.");
    expect(await ok(client, 'explain_request', { id: matched! })).toContain("from the fixture 'weather' (x-mock-source: fixture:weather)");
    const whyGenerated = await ok(client, 'explain_request', { id: generated! });
    expect(whyGenerated).toContain('generated the reply');
    expect(whyGenerated).toContain("The closest fixture was 'weather'");
  });

  it('fixture_from_request pins a generated reply as YAML, and with file the same request replays it', async () => {
    const s = `${transport}-pin`;
    const question = `pin this for ${transport}`;
    const original = (await ask(s, question)).choices[0]!.message.content;
    const { id } = (await admin<{ requests: Array<{ id: string }> }>(`/requests?session=${s}`)).requests[0]!;
    const yaml = await ok(client, 'fixture_from_request', { id });
    expect(yaml).toMatch(/^# last user message: pin this for /);
    expect(yaml).toContain('fingerprint:');
    const before = server.reloads();
    expect(await ok(client, 'fixture_from_request', { id, file: `${transport}-pinned.yaml` })).toContain(`into ${transport}-pinned.yaml`);
    await server.waitForReload(before);
    expect((await ask(`${s}-again`, question)).choices[0]!.message.content).toBe(original);
    expect(await ok(client, 'explain_request', { id: (await admin<{ requests: Array<{ id: string }> }>(`/requests?session=${s}-again`)).requests[0]!.id })).toContain(
      `from the fixture '${transport}-pinned'`,
    );
  });

  it('add_fixture makes the next reply that fixture\'s text, for one session', async () => {
    const yaml = `chat:\n  - name: ${transport}-greeting\n    match: { contains: greet }\n    reply: { text: Hello from ${transport}. }\n`;
    expect(await ok(client, 'add_fixture', { yaml, session })).toContain(`Added 1 fixture to the session '${session}': ${transport}-greeting`);
    expect((await ask(session, 'greet me')).choices[0]!.message.content).toBe(`Hello from ${transport}.`);
    const { fixtures } = await admin<{ fixtures: Array<{ name: string; session: string | null }> }>(`/fixtures?session=${session}`);
    expect(fixtures).toContainEqual(expect.objectContaining({ name: `${transport}-greeting`, session }));
    expect(await ok(client, 'list_fixtures', { session })).toMatch(new RegExp(`${transport}-greeting \\| chat \\| POST /__admin/fixtures \\| 0 \\| ${session}`));
  });

  it('add_fixture with file writes a fixtures file that answers every session at once', async () => {
    const yaml = `chat:\n  - name: ${transport}-saved\n    match: { contains: saved-${transport} }\n    reply: { text: Saved by ${transport}. }\n`;
    expect(await ok(client, 'add_fixture', { yaml, file: `${transport}-saved.yaml` })).toContain(`its fixtures: ${transport}-saved`);
    expect(existsSync(join(server.fixturesDir, `${transport}-saved.yaml`))).toBe(true);
    expect((await ask('anyone', `saved-${transport}`)).choices[0]!.message.content).toBe(`Saved by ${transport}.`);
    const again = await call(client, 'add_fixture', { yaml, file: `${transport}-saved.yaml` });
    expect(again).toMatchObject({ isError: true, text: expect.stringContaining('is already in the fixtures directory; it is left as it is') });
    const broken = await call(client, 'add_fixture', { yaml: 'chat:\n  - reply: 5\n', file: `${transport}-broken.yaml` });
    expect(broken).toMatchObject({ isError: true, text: expect.stringContaining(`${transport}-broken.yaml was not kept`) });
    expect(existsSync(join(server.fixturesDir, `${transport}-broken.yaml`))).toBe(false);
  });

  it('advance_clock completes a video task and a batch without waiting', async () => {
    const video = await openai(session).videos.create({ prompt: 'a cat', model: 'sora-2', seconds: '4' });
    expect(video.status).toBe('queued');
    const line = JSON.stringify({ custom_id: 'one', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] } });
    const file = await openai(session).files.create({ file: await toFile(Buffer.from(line), 'one.jsonl'), purpose: 'batch' });
    const batch = await openai(session).batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(await ok(client, 'advance_clock', { advance_ms: 3_600_000 })).toMatch(/The mock clock now reads \d{4}-/);
    expect((await openai(session).videos.retrieve(video.id)).status).toBe('completed');
    expect((await openai(session).batches.retrieve(batch.id)).request_counts).toEqual({ total: 1, completed: 1, failed: 0 });
    expect(await ok(client, 'advance_clock', { set: '2031-01-01T00:00:00Z' })).toContain('2031-01-01T00:00:00.000Z');
  });

  it('reset forgets a session', async () => {
    const s = `${transport}-reset`;
    await ask(s, 'hello');
    expect(await ok(client, 'reset', { session: s })).toContain(`Reset the session '${s}'`);
    expect((await admin<{ requests: unknown[] }>(`/requests?session=${s}`)).requests).toEqual([]);
  });

  it('verify says which expectations hold and which failed, with what was seen', async () => {
    const s = `${transport}-verify`;
    await ask(s, 'weather please');
    const text = await ok(client, 'verify', { session: s, expect: [{ requests: { fixture: 'weather' }, count: 1 }, { requests: { model: 'gpt-4.1' } }] });
    expect(text).toMatch(/^1 of 2 expectations failed\.\n- holds: As expected exactly 1 request matching \{ fixture: "weather" \}; saw 1: req_\w+\.\n- FAILED: Expected at least 1 request matching \{ model: "gpt-4\.1" \}; saw none \(nearest: req_\w+ \(POST \/v1\/chat\/completions: model was "gpt-4o-mini"\)\)\.$/);
    expect(await ok(client, 'verify', { session: s, expect: [{ no_generated: true }] })).toBe('The expectation holds.\n- holds: As expected, no request was answered by the generator.');
  });

  it('usage totals the tokens and cost of a session, per model, as the SDK was told', async () => {
    const s = `${transport}-usage`;
    const { usage } = await ask(s, 'weather please');
    const text = await ok(client, 'usage', { session: s });
    const cost = `$${Number(((usage!.prompt_tokens * 0.15 + usage!.completion_tokens * 0.6) / 1e6).toPrecision(6))}`;
    expect(text).toContain(`In all: 1 requests, ${usage!.prompt_tokens} input and ${usage!.completion_tokens} output tokens, ${cost}.`);
    expect(text).toContain(`${s} / gpt-4o-mini | 1 | ${usage!.prompt_tokens} | ${usage!.completion_tokens} | ${cost}`);
  });

  it('answers a bad input to every tool with a tool error naming the field, and keeps answering', async () => {
    const tools = new Set<string>();
    for (const [tool, args, named] of MISTAKES) {
      const answer = await call(client, tool, args);
      expect({ tool, args, ...answer }).toEqual({ tool, args, isError: true, text: expect.stringContaining(named) });
      tools.add(tool);
    }
    expect([...tools].sort()).toEqual((await client.listTools()).tools.map((t) => t.name).sort());
    expect(await ok(client, 'status')).toContain('The mock is ok.');
  });

  it('answers an unknown tool with a JSON-RPC error naming the known ones', async () => {
    const error = await client.callTool({ name: 'delete_everything', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('Known tools: status, list_fixtures') });
  });
});
