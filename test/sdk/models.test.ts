// The model lists: one catalog, three formats chosen by headers, 401 without a key.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const CATALOG = ['gpt-4o-mini', 'gpt-4.1', 'o4-mini', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'gpt-image-1', 'gemini-2.5-flash-image', 'sora-2', 'seedance-1-0-pro'];

beforeAll(async () => {
  server = await startTestServer({ scenarios: 'scenarios' });
});
afterAll(() => server.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });

describe('model lists', () => {
  it('lists the default catalog through the openai SDK', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test' });
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(CATALOG));
    const one = await client.models.retrieve('gpt-4.1');
    expect(one).toMatchObject({ id: 'gpt-4.1', object: 'model', owned_by: 'openai' });
  });

  it('answers 401 without a key in every format', async () => {
    const openai = await get('/v1/models');
    expect(openai.status).toBe(401);
    expect(await openai.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const gemini = await get('/v1beta/models');
    expect(gemini.status).toBe(401);
    expect(await gemini.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });

  it('gives the messages-style list for x-api-key with anthropic-version', async () => {
    const response = await get('/v1/models?limit=1000', { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' });
    const body = (await response.json()) as { data: Array<{ type: string; id: string; created_at: string }>; has_more: boolean; first_id: string };
    expect(body.data[0]).toMatchObject({ type: 'model', id: 'gpt-4o-mini' });
    expect(body.data[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(body.has_more).toBe(false);
    expect(body.first_id).toBe('gpt-4o-mini');
  });

  it('gives the generate-content list for x-goog-api-key or ?key=, pages without a token on the last page', async () => {
    const first = (await (await get('/v1/models?key=k&pageSize=6')).json()) as { models: Array<{ name: string }>; nextPageToken?: string };
    expect(first.models).toHaveLength(6);
    expect(first.models[0]!.name).toBe('models/gpt-4o-mini');
    expect(first.nextPageToken).toBeTruthy();
    const rest = (await (await get(`/v1beta/models?pageSize=1000&pageToken=${first.nextPageToken}`, { 'x-goog-api-key': 'k' })).json()) as {
      models: Array<{ name: string }>;
      nextPageToken?: string;
    };
    expect(rest.models.map((m) => m.name)).toContain('models/seedance-1-0-pro');
    expect(rest).not.toHaveProperty('nextPageToken');
  });

  it('gives one model in the generate-content form, and 404 for an unknown one', async () => {
    const one = await get('/v1beta/models/gemini-2.5-flash', { 'x-goog-api-key': 'k' });
    expect(await one.json()).toMatchObject({ name: 'models/gemini-2.5-flash', supportedGenerationMethods: expect.arrayContaining(['generateContent']) });
    const missing = await get('/v1beta/models/nope', { 'x-goog-api-key': 'k' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });

  it('adds a fixtures file\'s models to the default catalog, first, an existing id replaced in place', async () => {
    const own = await startTestServer({ fixtureFiles: { 'models.yaml': 'models:\n  - id: house-model\n  - id: gpt-4.1\n    display_name: House GPT\n' } });
    try {
      const body = (await (await fetch(`${own.url}/v1/models`, { headers: { authorization: 'Bearer k' } })).json()) as { data: Array<{ id: string }> };
      const ids = body.data.map((m) => m.id);
      expect(ids.slice(0, 2)).toEqual(['house-model', 'gpt-4.1']);
      expect(ids).toEqual(expect.arrayContaining(CATALOG));
      expect(ids.filter((id) => id === 'gpt-4.1')).toHaveLength(1);
      const client = new Anthropic({ baseURL: own.url, apiKey: 'k', maxRetries: 0 });
      expect((await client.models.retrieve('gpt-4.1')).display_name).toBe('House GPT');
    } finally {
      await own.close();
    }
  });

  it('makes a file\'s models the whole catalog with `catalog: replace`', async () => {
    const own = await startTestServer({ fixtureFiles: { 'models.yaml': 'catalog: replace\nmodels:\n  - id: house-model\n' } });
    try {
      const body = (await (await fetch(`${own.url}/v1/models`, { headers: { authorization: 'Bearer k' } })).json()) as { data: Array<{ id: string }> };
      expect(body.data.map((m) => m.id)).toEqual(['house-model']);
    } finally {
      await own.close();
    }
  });

  it('carries each model\'s lifecycle and dates from the catalog into the messages style, active and null by default', async () => {
    const yaml = 'catalog: replace\nmodels:\n  - id: claude-old\n    lifecycle: deprecated\n    deprecated_at: 2026-06-01\n    retires_at: 2026-12-01T12:00:00Z\n  - id: claude-new\n';
    const own = await startTestServer({ fixtureFiles: { 'models.yaml': yaml } });
    try {
      const client = new Anthropic({ baseURL: own.url, apiKey: 'k', maxRetries: 0 });
      const listed: Array<[string, string, string | null, string | null]> = [];
      for await (const model of client.models.list()) listed.push([model.id, model.lifecycle, model.deprecated_at, model.retires_at]);
      expect(listed).toEqual([
        ['claude-old', 'deprecated', '2026-06-01T00:00:00Z', '2026-12-01T12:00:00Z'],
        ['claude-new', 'active', null, null],
      ]);
      expect((await client.models.retrieve('claude-old')).lifecycle).toBe('deprecated');
    } finally {
      await own.close();
    }
  });

  it('applies a scenario to the model list, in the format the headers chose', async () => {
    const openai = await get('/v1/models', { authorization: 'Bearer k', 'x-mock-scenario': 'rate_limit' });
    expect(openai.status).toBe(429);
    expect(await openai.json()).toMatchObject({ error: { type: 'rate_limit_error' } });
    const gemini = await get('/v1beta/models/gemini-2.5-flash', { 'x-goog-api-key': 'k', 'x-mock-scenario': 'server_error' });
    expect(gemini.status).toBe(500);
    expect(await gemini.json()).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
  });
});
