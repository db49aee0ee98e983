// The `ollama` client pointed at the mock: chat and generate, whole and streamed, tool calls with
// object arguments, the model doors, Ollama's own errors, and the journal under its name.
import { Ollama, type ToolCall } from 'ollama';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { houseChecks } from './house.js';

const FIXTURES = `
chat:
  - name: tides
    match: { contains: "about tides" }
    reply: { text: "Tides follow the moon, twice a day, along every coast." }
  - name: weather
    match: { contains: "weather in Oslo", tools: [get_weather] }
    reply: { tool_calls: [ { name: get_weather, arguments: { city: Oslo, days: 2 } } ] }
`;

const SCENARIOS = `
scenarios:
  - name: limited
    steps: [ { error: rate_limit, headers: { retry-after: "3" } } ]
`;

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] },
  },
};

let server: TestServer;
const client = (headers: Record<string, string> = {}) => new Ollama({ host: server.url, headers });

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'ollama.yaml': FIXTURES }, scenarioFiles: { 'limited.yaml': SCENARIOS } });
});
afterAll(() => server.close());

async function journal(session: string) {
  const response = await server.admin(`/requests?session=${session}`);
  return ((await response.json()) as { requests: Array<{ style: string; path: string; status: number; model: string; fixture: string | null }> }).requests;
}

describe('the ollama client against the mock', () => {
  it('answers /api/chat whole and streamed with the same text, the stream ending with counts and durations', async () => {
    const ollama = client();
    const messages = [{ role: 'user', content: 'Tell me about tides.' }];
    const whole = await ollama.chat({ model: 'claude-sonnet-4-6', messages, stream: false });
    expect(whole.message.content).toBe('Tides follow the moon, twice a day, along every coast.');
    expect(whole.done).toBe(true);
    expect(whole.done_reason).toBe('stop');
    expect(whole.eval_count).toBeGreaterThan(0);
    expect(whole.prompt_eval_count).toBeGreaterThan(0);

    const parts: string[] = [];
    let last: Awaited<typeof whole> | undefined;
    for await (const part of await ollama.chat({ model: 'claude-sonnet-4-6:latest', messages, stream: true })) {
      parts.push(part.message.content);
      last = part;
    }
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.join('')).toBe(whole.message.content);
    expect(last!.done).toBe(true);
    expect(last!.eval_count).toBe(whole.eval_count);
    expect(last!.total_duration).toBeGreaterThanOrEqual(last!.load_duration + last!.prompt_eval_duration + last!.eval_duration);
    expect(last!.eval_duration).toBeGreaterThan(0);
  });

  it('answers /api/generate whole and streamed alike', async () => {
    const ollama = client();
    const whole = await ollama.generate({ model: 'gpt-4o-mini', prompt: 'Tell me about tides.', stream: false });
    expect(whole.response).toBe('Tides follow the moon, twice a day, along every coast.');
    let text = '';
    for await (const part of await ollama.generate({ model: 'gpt-4o-mini', prompt: 'Tell me about tides.', stream: true })) text += part.response;
    expect(text).toBe(whole.response);
  });

  it('calls a tool with object arguments true to its schema, whole and streamed', async () => {
    const ollama = client();
    const messages = [{ role: 'user', content: 'What is the weather in Oslo?' }];
    const whole = await ollama.chat({ model: 'gpt-4o-mini', messages, tools: [weatherTool], stream: false });
    const call = whole.message.tool_calls![0]!;
    expect(call.function.name).toBe('get_weather');
    expect(call.function.arguments).toEqual({ city: 'Oslo', days: 2 });
    expect(typeof call.function.arguments.city).toBe('string');
    expect(Number.isInteger(call.function.arguments.days)).toBe(true);

    const streamed: ToolCall[] = [];
    for await (const part of await ollama.chat({ model: 'gpt-4o-mini', messages, tools: [weatherTool], stream: true })) streamed.push(...(part.message.tool_calls ?? []));
    // Each answer has its own call ids; the calls are the same.
    const functions = (calls: typeof streamed) => calls.map((call) => call.function);
    expect(functions(streamed)).toEqual(functions(whole.message.tool_calls!));
  });

  it('lists, shows and embeds with the catalog, and says its version', async () => {
    const ollama = client();
    const { models } = await ollama.list();
    expect(models.map((model) => model.name)).toContain('claude-sonnet-4-6');
    const shown = await ollama.show({ model: 'claude-sonnet-4-6:latest' });
    expect(shown.capabilities).toContain('tools');
    const { embeddings } = await ollama.embed({ model: 'text-embedding-3-small', input: ['one', 'two'] });
    expect(embeddings).toHaveLength(2);
    expect(embeddings[0]!.length).toBeGreaterThan(8);
    const { version } = await ollama.version();
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("answers an unknown model with Ollama's own 404", async () => {
    const error = (await client()
      .chat({ model: 'llama9:70b', messages: [{ role: 'user', content: 'hi' }], stream: false })
      .catch((caught: unknown) => caught)) as { name: string; status_code: number; error: string };
    expect(error.name).toBe('ResponseError');
    expect(error.status_code).toBe(404);
    expect(error.error).toBe("model 'llama9:70b' not found");
    const shown = (await client().show({ model: 'llama9' }).catch((caught: unknown) => caught)) as { status_code: number; error: string };
    expect(shown.status_code).toBe(404);
    expect(shown.error).toBe("model 'llama9' not found");
  });

  it('gives a rate_limit scenario as the client\'s ResponseError with status 429', async () => {
    const error = (await client({ 'x-mock-scenario': 'limited' })
      .chat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: false })
      .catch((caught: unknown) => caught)) as { name: string; status_code: number; error: string };
    expect(error.name).toBe('ResponseError');
    expect(error.status_code).toBe(429);
    expect(error.error.length).toBeGreaterThan(0);
  });

  it('journals its requests under the ollama style, with the catalog model and the fixture', async () => {
    const ollama = client({ 'x-mock-session': 'ollama-journal' });
    await ollama.chat({ model: 'claude-sonnet-4-6:latest', messages: [{ role: 'user', content: 'Tell me about tides.' }], stream: false });
    await ollama.list();
    const entries = await journal('ollama-journal');
    expect(entries.map((entry) => [entry.style, entry.path, entry.status])).toEqual([
      ['ollama', '/api/chat', 200],
      ['ollama', '/api/tags', 200],
    ]);
    expect(entries[0]!.model).toBe('claude-sonnet-4-6');
    expect(entries[0]!.fixture).toBe('tides');
  });

  houseChecks({
    style: 'ollama',
    ask: async (url, headers, stream) => {
      const ollama = new Ollama({ host: url, headers });
      const messages = [{ role: 'user', content: 'What is the capital of Norway?' }];
      if (!stream) return (await ollama.chat({ model: 'gpt-4o-mini', messages, stream: false })).message.content;
      let text = '';
      for await (const part of await ollama.chat({ model: 'gpt-4o-mini', messages, stream: true })) text += part.message.content;
      return text;
    },
  });
});
