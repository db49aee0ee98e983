// The default catalog as today's SDKs name it: every current id SPEC 20 lists answers in all three
// list formats, with a price; lifecycles follow the SDKs' deprecation data, judged on the mock clock.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCatalog } from '../../src/config/default-catalog.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CURRENT = [
  'claude-opus-4-8', 'claude-opus-4-7', 'claude-sonnet-4-6', 'claude-haiku-4-5',
  'gpt-6.2-sol', 'gpt-5.6-sol', 'gpt-5.5', 'gpt-5.4', 'gpt-5.4-mini', 'gpt-4o-mini', 'gpt-4.1', 'o3', 'o4-mini', 'gpt-audio',
  'gpt-image-2', 'gpt-image-1', 'dall-e-3', 'dall-e-2',
  'gemini-3.8-flash', 'gemini-3.1-pro-preview', 'gemini-2.5-flash', 'gemini-2.5-pro',
];

let server: TestServer;
let strict: TestServer;

beforeAll(async () => {
  // The day after claude-sonnet-4-5's end of life (@anthropic-ai/sdk's DEPRECATED_MODELS).
  [server, strict] = await Promise.all([startTestServer({ clock: '2026-12-01T00:00:00Z' }), startTestServer({ clock: '2026-12-01T00:00:00Z', strict: true })]);
});
afterAll(() => Promise.all([server.close(), strict.close()]));

describe('the default catalog', () => {
  it('holds every current id SPEC 20 names, priced, in all three list formats', async () => {
    for (const id of CURRENT) expect(defaultCatalog().find((m) => m.id === id)?.pricing, id).toBeDefined();
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k' });
    const anthropic = new Anthropic({ baseURL: server.url, apiKey: 'k' });
    const openaiIds: string[] = [];
    for await (const model of openai.models.list()) openaiIds.push(model.id);
    const anthropicIds: string[] = [];
    for await (const model of anthropic.models.list({ limit: 1000 })) anthropicIds.push(model.id);
    const gemini = (await (await fetch(`${server.url}/v1beta/models?pageSize=1000`, { headers: { 'x-goog-api-key': 'k' } })).json()) as { models: Array<{ baseModelId: string }> };
    const all = defaultCatalog().map((m) => m.id);
    expect(openaiIds).toEqual(all);
    expect(anthropicIds).toEqual(all);
    expect(gemini.models.map((m) => m.baseModelId)).toEqual(all);
    expect(all).toEqual(expect.arrayContaining(CURRENT));
  });

  it('answers Claude Code\'s default model', async () => {
    const client = new Anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const message = await client.messages.create({ model: 'claude-opus-4-8', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.model).toBe('claude-opus-4-8');
  });

  it('lists a model the SDK deprecates as deprecated with its end of life, active ones with null dates', async () => {
    const client = new Anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    expect(await client.models.retrieve('claude-sonnet-4-5')).toMatchObject({ lifecycle: 'deprecated', retires_at: '2026-11-30T00:00:00Z' });
    expect(await client.models.retrieve('claude-opus-4-8')).toMatchObject({ lifecycle: 'active', deprecated_at: null, retires_at: null });
  });

  it('still answers a model past its end of life, except under --strict, which answers the vendor\'s not-found', async () => {
    const ask = { model: 'claude-sonnet-4-5', max_tokens: 20, messages: [{ role: 'user' as const, content: 'hi' }] };
    const lenient = new Anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    expect((await lenient.messages.create(ask)).type).toBe('message');
    const strictClient = new Anthropic({ baseURL: strict.url, apiKey: 'k', maxRetries: 0 });
    const error = await strictClient.messages.create(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect((await strictClient.models.retrieve('claude-sonnet-4-5')).lifecycle).toBe('deprecated');
  });
});
