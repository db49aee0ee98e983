// Vertex AI pointed at the mock: @google/genai in Vertex mode (Gemini's generate-content under the
// project's path, with `createTime`) and AnthropicVertex (rawPredict, streamRawPredict), both
// with a stubbed Google credential, Vertex's errors, and the journal under `vertex`.
import Anthropic from '@anthropic-ai/sdk';
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { ApiError, GoogleGenAI, Type } from '@google/genai';
import type { AuthClient } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { houseChecks, TIDES } from './house.js';

const SCENARIOS = `
scenarios:
  - name: limited
    steps: [ { error: rate_limit, headers: { retry-after: "3" } } ]
`;
const TIDES_TEXT = 'Tides follow the moon, twice a day, along every coast.';

/** What Google's auth library hands the clients: a token, without reaching Google. */
const authClient = { projectId: 'my-project', getRequestHeaders: async () => new Headers({ authorization: 'Bearer ya29.mock-token' }) } as unknown as AuthClient;

const gemini = (url: string, headers: Record<string, string> = {}, apiVersion?: string) =>
  new GoogleGenAI({ vertexai: true, project: 'my-project', location: 'us-central1', googleAuthOptions: { authClient }, apiVersion, httpOptions: { baseUrl: url, headers } });
const claude = (url: string, headers: Record<string, string> = {}) =>
  new AnthropicVertex({ baseURL: `${url}/v1`, region: 'us-east5', projectId: 'my-project', authClient, maxRetries: 0, defaultHeaders: headers });

let server: TestServer;
const tides = 'Tell me about tides.';

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'vertex.yaml': TIDES }, scenarioFiles: { 'vertex.yaml': SCENARIOS } });
});
afterAll(() => server.close());

async function journal(session: string) {
  const response = await server.admin(`/requests?session=${session}`);
  return ((await response.json()) as { requests: Array<{ style: string; model: string; path: string }> }).requests;
}

describe('@google/genai in Vertex mode', () => {
  it('answers whole and streamed alike under the project path, with createTime and usage', async () => {
    const whole = await gemini(server.url, { 'x-mock-session': 'vx-gemini' }).models.generateContent({ model: 'gemini-2.5-flash', contents: tides });
    expect(whole.text).toBe(TIDES_TEXT);
    expect(Number.isNaN(Date.parse(whole.createTime!))).toBe(false);
    expect(whole.usageMetadata!.candidatesTokenCount).toBeGreaterThan(0);
    let text = '';
    for await (const chunk of await gemini(server.url, { 'x-mock-session': 'vx-gemini' }).models.generateContentStream({ model: 'gemini-2.5-flash', contents: tides })) {
      expect(Number.isNaN(Date.parse(chunk.createTime!))).toBe(false);
      text += chunk.text ?? '';
    }
    expect(text).toBe(TIDES_TEXT);
    const entries = await journal('vx-gemini');
    expect(entries.map((entry) => [entry.style, entry.path])).toEqual([
      ['vertex', '/v1beta1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent'],
      ['vertex', '/v1beta1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent'],
    ]);
  });

  it('counts tokens and answers the v1 surface', async () => {
    const counted = await gemini(server.url, {}, 'v1').models.countTokens({ model: 'gemini-2.5-flash', contents: tides });
    expect(counted.totalTokens).toBeGreaterThan(0);
    const whole = await gemini(server.url, {}, 'v1').models.generateContent({ model: 'gemini-2.5-flash', contents: tides });
    expect(whole.text).toBe(TIDES_TEXT);
  });

  it('calls a forced tool with arguments true to its schema', async () => {
    const answer = await gemini(server.url).models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Weather?',
      config: {
        tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING }, days: { type: Type.INTEGER } }, required: ['city', 'days'] } }] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY' as never } },
      },
    });
    const call = answer.functionCalls![0]!;
    expect(call.name).toBe('get_weather');
    expect(typeof call.args!.city).toBe('string');
    expect(Number.isInteger(call.args!.days)).toBe(true);
  });

  it("raises ApiError 429 for a rate_limit scenario and 404 NOT_FOUND for a model Vertex does not have", async () => {
    const limited = await gemini(server.url, { 'x-mock-scenario': 'limited' }).models.generateContent({ model: 'gemini-2.5-flash', contents: tides }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(ApiError);
    expect((limited as ApiError).status).toBe(429);
    expect(JSON.parse((limited as ApiError).message).error.status).toBe('RESOURCE_EXHAUSTED');
    const missing = await gemini(server.url).models.generateContent({ model: 'gemini-0-nano', contents: tides }).catch((e: unknown) => e);
    expect((missing as ApiError).status).toBe(404);
    expect(JSON.parse((missing as ApiError).message).error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
  });
});

describe('AnthropicVertex', () => {
  it('answers a dated model id whole and streamed alike, with usage', async () => {
    const session = { 'x-mock-session': 'vx-claude' };
    const whole = await claude(server.url, session).messages.create({ model: 'claude-sonnet-4-6@20250929', max_tokens: 200, messages: [{ role: 'user', content: tides }] });
    expect(whole.content[0]).toMatchObject({ type: 'text', text: TIDES_TEXT });
    expect(whole.usage.output_tokens).toBeGreaterThan(0);
    const streamed = await claude(server.url, session).messages.stream({ model: 'claude-sonnet-4-6@20250929', max_tokens: 200, messages: [{ role: 'user', content: tides }] }).finalMessage();
    expect(streamed.content).toEqual(whole.content);
    expect(streamed.usage.output_tokens).toBe(whole.usage.output_tokens);
    const entries = await journal('vx-claude');
    expect(entries.map((entry) => [entry.style, entry.model])).toEqual([
      ['vertex', 'claude-sonnet-4-6'],
      ['vertex', 'claude-sonnet-4-6'],
    ]);
    expect(entries[1]!.path).toBe('/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-6@20250929:streamRawPredict');
  });

  it('counts tokens at count-tokens:rawPredict as the messages count_tokens does', async () => {
    const asked = { model: 'claude-sonnet-4-6@20250929', messages: [{ role: 'user' as const, content: tides }], system: 'Be brief.' };
    const counted = await claude(server.url, { 'x-mock-session': 'vx-count' }).messages.countTokens(asked);
    const direct = await new Anthropic({ baseURL: server.url, apiKey: 'sk-ant' }).messages.countTokens({ ...asked, model: 'claude-sonnet-4-6' });
    expect(counted).toEqual({ input_tokens: direct.input_tokens });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const entries = await journal('vx-count');
    expect(entries.map((entry) => [entry.style, entry.model, entry.path])).toEqual([
      ['vertex', 'claude-sonnet-4-6', '/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict'],
    ]);
    const missing = await claude(server.url).messages.countTokens({ ...asked, model: 'claude-opus-0@20200101' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('refuses a rawPredict body without anthropic_version in Vertex\'s words', async () => {
    // The client always adds the version; a hand-built request is what meets this.
    const response = await fetch(`${server.url}/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-6:rawPredict`, {
      method: 'POST',
      headers: { authorization: 'Bearer ya29.mock-token', 'content-type': 'application/json' },
      body: JSON.stringify({ max_tokens: 50, messages: [{ role: 'user', content: tides }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 400, message: 'anthropic_version: Field required', status: 'INVALID_ARGUMENT' } });
  });

  it('calls a forced tool with arguments true to its schema', async () => {
    const answer = await claude(server.url).messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'] } }],
      tool_choice: { type: 'any' },
    });
    const call = answer.content.find((block) => block.type === 'tool_use')!;
    expect(call.name).toBe('get_weather');
    const input = call.input as { city: unknown; days: unknown };
    expect(typeof input.city).toBe('string');
    expect(Number.isInteger(input.days)).toBe(true);
    expect(answer.stop_reason).toBe('tool_use');
  });

  it('raises RateLimitError for a rate_limit scenario and NotFoundError for an unknown model', async () => {
    const limited = await claude(server.url, { 'x-mock-scenario': 'limited' }).messages.create({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: tides }] }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    const missing = await claude(server.url).messages.create({ model: 'claude-opus-0@20200101', max_tokens: 50, messages: [{ role: 'user', content: tides }] }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
    expect((missing as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });
});

describe('the house checks, Gemini on Vertex', () => {
  houseChecks({
    style: 'vertex',
    ask: async (url, headers, stream) => {
      const contents = 'What is the capital of Norway?';
      const client = gemini(url, headers);
      if (!stream) return (await client.models.generateContent({ model: 'gemini-2.5-flash', contents })).text ?? '';
      let text = '';
      for await (const chunk of await client.models.generateContentStream({ model: 'gemini-2.5-flash', contents })) text += chunk.text ?? '';
      return text;
    },
  });
});

describe('the house checks, Anthropic on Vertex', () => {
  houseChecks({
    style: 'vertex',
    ask: async (url, headers, stream) => {
      const request = { model: 'claude-sonnet-4-6@20250929', max_tokens: 200, messages: [{ role: 'user' as const, content: 'What is the capital of Norway?' }] };
      const client = claude(url, headers);
      const message = stream ? await client.messages.stream(request).finalMessage() : await client.messages.create(request);
      return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    },
  });
});
