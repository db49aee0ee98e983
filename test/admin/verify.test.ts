// The test's oracle (SPEC 17): an agent's tool round trip through the openai SDK, then each kind
// of expectation holding and failing with a message that says what was expected and seen.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Expectation, VerifyAnswer } from '../../src/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
models:
  - { id: gpt-4o-mini, pricing: { input: 0.15, output: 0.6 } }
  - { id: gpt-4.1 }
chat:
  - name: weather-call
    match: { tools: [get_weather], contains: "weather" }
    reply:
      tool_calls: [ { name: get_weather, arguments: { city: Paris } } ]
  - name: weather-answer
    match: { tools: [get_weather], conversation: "18 degrees" }
    priority: 1
    reply: { text: "It is 18 degrees in Paris." }
`;

let server: TestServer;

const openai = (session: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });

async function verify(body: unknown, query = ''): Promise<{ status: number; body: VerifyAnswer & { error?: { message: string; param: string } } }> {
  const response = await server.admin(`/verify${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as VerifyAnswer & { error?: { message: string; param: string } } };
}

const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];

/** An agent loop: the model asks for the tool, the tool's result goes back, the model answers. */
async function agentLoop(session: string): Promise<string | null> {
  const client = openai(session);
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
  const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
  const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
  messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: JSON.stringify({ celsius: 18, summary: '18 degrees' }) });
  const final = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
  return final.choices[0]!.message.content;
}

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'agent.yaml': FIXTURES } });
});
afterAll(() => server.close());

describe('POST /__admin/verify', () => {
  it('verifies an agent loop through the openai SDK by sequence and tool_result', async () => {
    expect(await agentLoop('agent')).toBe('It is 18 degrees in Paris.');
    const { status, body } = await verify({
      session: 'agent',
      expect: [
        { sequence: [{ tools_offered: 'get_weather', fixture: 'weather-call' }, { tool_result: 'get_weather', text: 'weather in Paris' }] },
        { requests: { tool_result: 'get_weather' }, count: 1 },
        { requests: { body: { messages: [{ role: 'tool' }], tools: [{ function: { name: 'get_weather' } }] } }, count: 1 },
        { no_generated: true },
      ],
    });
    expect(status).toBe(200);
    expect(body.results.map((r) => [r.ok, r.message])).toEqual([
      [true, expect.stringMatching(/^As expected, 2 requests in order: req_\w+, req_\w+\.$/)],
      [true, expect.stringMatching(/^As expected exactly 1 request matching \{ tool_result: "get_weather" \}; saw 1: req_\w+\.$/)],
      [true, expect.any(String)],
      [true, 'As expected, no request was answered by the generator.'],
    ]);
    expect(body.ok).toBe(true);
    const ids = body.results[0]!.actual as string[];
    expect(body.results[1]!.actual).toBe(1);
    expect(ids).toHaveLength(2);
  });

  it('finds a body written with its own spacing, escapes and byte order mark as the value it means, and the journal shows it parsed', async () => {
    // A byte order mark, spaces, newlines, escaped letters and a number written as 1.50: the
    // journal keeps the client's text, and the filter compares values, not spellings.
    const written = '\ufeff{ "model" : "gpt-4o-mini",\n  "temperature": 1.50,\n  "messages": [ { "role": "user", "content": "\\u0068ello \\u00e9t\\u00e9" } ] }';
    const sent = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json', 'x-mock-session': 'spelled' }, body: written });
    expect(sent.status).toBe(200);
    const { body } = await verify({ session: 'spelled', expect: [{ requests: { body: { temperature: 1.5, messages: [{ content: 'hello été' }] } }, count: 1 }] });
    expect(body.results.map((r) => r.ok)).toEqual([true]);
    const listed = (await (await server.admin('/requests?session=spelled')).json()) as { requests: Array<{ body: unknown }> };
    expect(listed.requests[0]!.body).toEqual({ model: 'gpt-4o-mini', temperature: 1.5, messages: [{ role: 'user', content: 'hello été' }] });
  });

  it('fails a sequence out of order, naming where the step matched instead', async () => {
    await agentLoop('order');
    const { body } = await verify({ session: 'order', expect: [{ sequence: [{ tool_result: 'get_weather' }, { fixture: 'weather-call' }] }] });
    expect(body.ok).toBe(false);
    expect(body.results[0]!.message).toMatch(/^Expected 2 requests in order; steps 1-1 matched (req_\w+); step 2 \{ fixture: "weather-call" \} matched no request after \1 \(req_\w+ matched it, but before \1\)\.$/);
  });

  it('fails a count with the nearest entries and what each had where it failed', async () => {
    await agentLoop('count');
    const { body } = await verify({ session: 'count', expect: [{ requests: { model: 'gpt-4.1', tool_result: 'get_weather' } }] });
    expect(body.results[0]).toMatchObject({ ok: false, actual: 0 });
    expect(body.results[0]!.message).toMatch(
      /^Expected at least 1 request matching \{ model: "gpt-4\.1", tool_result: "get_weather" \}; saw none \(nearest: req_\w+ \(POST \/v1\/chat\/completions: model was "gpt-4o-mini"\), req_\w+ \(POST \/v1\/chat\/completions: model was "gpt-4o-mini"; it carried no tool result\)\)\.$/,
    );
    const many = await verify({ session: 'count', expect: [{ requests: { path: '/v1/chat/completions' }, count: { max: 1 } }, { requests: {}, count: { min: 1, max: 2 } }] });
    expect(many.body.results.map((r) => [r.ok, r.actual, r.message.split(';')[0]])).toEqual([
      [false, 2, 'Expected at most 1 request matching { path: "/v1/chat/completions" }'],
      [true, 2, 'As expected between 1 and 2 requests matching any request'],
    ]);
  });

  it('fails no_generated naming the generated answers and the closest fixture', async () => {
    await openai('generated').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Tell me about the sea' }] });
    const { body } = await verify({ session: 'generated', expect: [{ no_generated: true }] });
    expect(body.results[0]!.ok).toBe(false);
    expect(body.results[0]!.actual).toEqual([expect.stringMatching(/^req_/)]);
    expect(body.results[0]!.message).toMatch(/^Expected every request answered by a fixture, a recording or a scenario; 1 request got a generated answer: req_\w+ \(the closest fixture to req_\w+ was "weather-\w+", which failed on tools.*\)\.$/);
  });

  it('holds and fails max_tokens and max_cost_usd over the answers, priced from the fixtures file', async () => {
    await agentLoop('budget');
    const { body: usage } = await server.admin('/usage?session=budget').then(async (r) => ({ body: (await r.json()) as { total: { input_tokens: number; output_tokens: number; cost_usd: number } } }));
    const tokens = usage.total.input_tokens + usage.total.output_tokens;
    const cost = usage.total.cost_usd;
    expect(cost).toBeCloseTo((usage.total.input_tokens * 0.15 + usage.total.output_tokens * 0.6) / 1e6, 12);
    const { body } = await verify({
      session: 'budget',
      expect: [{ max_tokens: tokens }, { max_tokens: tokens - 1 }, { max_cost_usd: cost }, { max_cost_usd: cost / 2 }],
    });
    expect(body.results.map((r) => r.ok)).toEqual([true, false, true, false]);
    expect(body.results[1]!.message).toBe(
      `Expected at most ${tokens - 1} tokens; the answers used ${tokens} tokens (${usage.total.input_tokens} input, ${usage.total.output_tokens} output) over 2 requests.`,
    );
    expect(body.results[1]!.actual).toEqual({ tokens, input_tokens: usage.total.input_tokens, output_tokens: usage.total.output_tokens });
    expect(body.results[3]!.message).toMatch(/^Expected a cost of at most \$[\d.e-]+; the answers cost \$[\d.e-]+ over 2 requests\.$/);
  });

  it('answers 409 to a failed verify with ?fail=409, 200 to one that holds', async () => {
    await agentLoop('fail');
    expect((await verify({ session: 'fail', expect: [{ requests: { model: 'gpt-4.1' } }] }, '?fail=409')).status).toBe(409);
    expect((await verify({ session: 'fail', expect: [{ requests: { model: 'gpt-4o-mini' }, count: 2 }] }, '?fail=409')).status).toBe(200);
  });

  it('fails every expectation over a session never heard of, naming it, and passes once it is announced', async () => {
    await agentLoop('budget-real');
    const budgets = [{ no_generated: true }, { max_cost_usd: 1 }, { max_tokens: 1_000_000 }, { requests: {}, count: { max: 0 } }];
    // A read of the misspelled session must not make it known.
    await server.admin('/requests?session=budget-reel');
    const misspelled = await verify({ session: 'budget-reel', expect: budgets }, '?fail=409');
    expect(misspelled.status).toBe(409);
    expect(misspelled.body.results.map((r) => r.ok)).toEqual([false, false, false, false]);
    expect(misspelled.body.results[0]!.message).toContain("never heard of session 'budget-reel'");
    const announced = await server.admin('/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: 'quiet' }) });
    expect(announced.status).toBe(200);
    expect((await verify({ session: 'quiet', expect: budgets }, '?fail=409')).body.ok).toBe(true);
    const written = await server.admin('/fixtures?session=written', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat: [{ name: 'quiet-hello', match: { contains: 'hello' }, reply: { text: 'hi' } }] }) });
    expect(written.status).toBe(201);
    expect((await verify({ session: 'written', expect: budgets })).body.ok).toBe(true);
  });

  it('refuses a malformed expectation with a 400 naming its path', async () => {
    const cases: Array<[unknown, string]> = [
      [{ expect: [{ requests: {} }, { requests: { modle: 'x' } }] }, 'expect[1].requests'],
      [{ expect: [{ requests: { status: '200' } }] }, 'expect[0].requests.status'],
      [{ expect: [{ max_tokens: 10, max_cost_usd: 1 }] }, 'expect[0]'],
      [{ expect: [{ sequence: [] }] }, 'expect[0].sequence'],
      [{ expect: [{ requests: {}, count: { min: 3, max: 1 } }] }, 'expect[0].count'],
      [{ expect: [{ requests: {} }], sesion: 'x' }, 'body'],
      [{ expect: Array.from({ length: 101 }, () => ({ requests: {} })) }, 'expect'],
      [{ expect: [{ sequence: Array.from({ length: 1001 }, () => ({})) }] }, 'expect[0].sequence'],
      [{ expect: [{ requests: { body: { messages: Array.from({ length: 40_000 }, (_, i) => i) } } }] }, 'expect[0].requests.body'],
      [{ expect: [{ requests: { tools_offered: Array.from({ length: 129 }, (_, i) => `t${i}`) } }] }, 'expect[0].requests.tools_offered'],
    ];
    for (const [body, param] of cases) {
      const answer = await verify(body);
      expect([answer.status, answer.body.error?.param]).toEqual([400, param]);
      expect(answer.body.error!.message).toContain(`'${param}'`);
    }
    const limits = await Promise.all([verify({ expect: Array.from({ length: 101 }, () => ({ no_generated: true })) }), verify({ expect: [{ requests: { body: { a: Array(1000).fill(1) } } }] })]);
    expect(limits.map((answer) => answer.body.error!.message)).toEqual([
      "Invalid value for 'expect': at most 100 expectations are checked in one call.",
      "Invalid value for 'expect[0].requests.body': a body filter holds at most 1000 values.",
    ]);
  });
});

describe('verify and assertVerified in process', () => {
  it('answers as the admin route does, and rejects with every failed message', async () => {
    await agentLoop('in-process');
    const expectations: Expectation[] = [
      { requests: { tool_result: 'get_weather' } },
      { requests: { model: 'gpt-4.1' } },
      { max_tokens: 1 },
    ];
    const answer = await server.verify(expectations, { session: 'in-process' });
    expect(answer.results.map((r) => r.ok)).toEqual([true, false, false]);
    const error = await server.assertVerified(expectations, { session: 'in-process' }).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`2 of 3 expectations failed:\n- ${answer.results[1]!.message}\n- ${answer.results[2]!.message}`);
    await expect(server.assertVerified([{ requests: { tool_result: 'get_weather' }, count: 1 }], { session: 'in-process' })).resolves.toBeUndefined();
    await expect(server.verify([{ max_tokens: -1 }])).rejects.toThrow("'expect[0].max_tokens'");
  });
});
