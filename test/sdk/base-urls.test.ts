// Base URLs as clients really set them: @google/genai on Gemini's v1 API is served like v1beta,
// and a base URL with its version prefix missing or doubled gets a 404 in the envelope of the
// family its path belongs to, with no x-mock-source (nothing answered it) and a hint at the fix.
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/state/journal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
  - name: greeting
    match: { contains: "hello" }
    reply: { text: "Hello over v1." }
`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES } });
});
afterAll(() => server.close());

async function journal(session: string): Promise<JournalEntry[]> {
  return ((await (await server.admin(`/requests?session=${session}`)).json()) as { requests: JournalEntry[] }).requests;
}

describe("Gemini's v1 API through @google/genai", () => {
  it('answers generateContent, streamGenerateContent, countTokens and the model list under /v1/models', async () => {
    const genai = new GoogleGenAI({ apiKey: 'g-test', httpOptions: { baseUrl: server.url, apiVersion: 'v1', headers: { 'x-mock-session': 'v1' } } });
    const whole = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hello there' });
    expect(whole.text).toBe('Hello over v1.');
    let streamed = '';
    for await (const chunk of await genai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hello again' })) streamed += chunk.text ?? '';
    expect(streamed).toBe('Hello over v1.');
    const counted = await genai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'hello there' });
    expect(counted.totalTokens).toBe(whole.usageMetadata!.promptTokenCount);
    const model = await genai.models.get({ model: 'gemini-2.5-flash' });
    expect(model.name).toBe('models/gemini-2.5-flash');
    const listed: string[] = [];
    for await (const each of await genai.models.list({ config: { pageSize: 50 } })) listed.push(each.name!);
    expect(listed).toContain('models/gemini-2.5-flash');
    expect((await journal('v1')).map((entry) => [entry.path, entry.status])).toEqual([
      ['/v1/models/gemini-2.5-flash:generateContent', 200],
      ['/v1/models/gemini-2.5-flash:streamGenerateContent', 200],
      ['/v1/models/gemini-2.5-flash:countTokens', 200],
      ['/v1/models/gemini-2.5-flash', 200],
      ['/v1/models', 200],
    ]);
  });
});

describe('a base URL with its prefix missing or doubled', () => {
  it('answers a Gemini-shaped path in the generate-content envelope, naming the /v1beta path', async () => {
    const genai = new GoogleGenAI({ apiKey: 'g-test', httpOptions: { baseUrl: server.url, apiVersion: '', headers: { 'x-mock-session': 'bare' } } });
    const error = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hello' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    const body = JSON.parse((error as ApiError).message) as { error: { code: number; status: string; message: string } };
    expect(body.error.code).toBe(404);
    expect(body.error.status).toBe('NOT_FOUND');
    expect(body.error.message).toContain('Did you mean POST /v1beta/models/gemini-2.5-flash:generateContent?');
    expect(body.error.message).toContain('its base URL is missing /v1beta');
    const [entry] = await journal('bare');
    expect(entry!.source).toBe('-');
    expect(entry!.response!.headers).not.toHaveProperty('x-mock-source');
  });

  it('answers a doubled /v1 before /messages in the messages envelope', async () => {
    const anthropic = new Anthropic({ baseURL: `${server.url}/v1`, apiKey: 'sk-ant', maxRetries: 0 });
    const error = await anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    const found = error as InstanceType<typeof Anthropic.NotFoundError>;
    expect((found.error as { error: { type: string } }).error.type).toBe('not_found_error');
    expect(found.apiMessage).toContain('Did you mean POST /v1/messages? The client calling it looks misconfigured: its base URL repeats /v1.');
    expect(found.headers?.get('x-mock-source')).toBeNull();
  });

  it('answers an OpenAI path without /v1 in the chat-completions envelope, with no x-mock-source', async () => {
    const openai = new OpenAI({ baseURL: server.url, apiKey: 'sk-test', maxRetries: 0 });
    const error = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    const found = error as InstanceType<typeof OpenAI.NotFoundError>;
    expect(found.code).toBe('unknown_url');
    expect(found.message).toContain('Did you mean POST /v1/chat/completions?');
    expect(found.headers?.get('x-mock-source')).toBeNull();
  });
});
