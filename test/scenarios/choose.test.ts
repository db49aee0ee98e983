// Choosing a scenario: header, query parameter, key, session, global, in that order; unknown
// names refused in the route's envelope; a scenario whose match a request misses leaves it alone.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const named = (name: string) => `  - name: ${name}\n    steps: [ { error: invalid_request, message: "from ${name}" } ]\n`;
const SCENARIOS = `scenarios:\n${['by_header', 'by_query', 'by_key', 'by_session', 'by_global'].map(named).join('')}
  - name: claude_only
    match: { model: "claude-*" }
    steps:
      - { error: server_error, times: 1 }
`;
const KEYS = 'keys:\n  - key: sk-keyed\n    scenario: by_key\n  - key: sk-plain\n';

let server: TestServer;

const openai = (key: string, session: string) =>
  new OpenAI({ baseURL: `${server.url}/v1`, apiKey: key, maxRetries: 0, defaultHeaders: { 'x-mock-session': session } });
const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] };

async function answeredBy(client: OpenAI, options: { headers?: Record<string, string>; query?: Record<string, string> } = {}) {
  const result = await client.chat.completions.create(ask, options).catch((e: unknown) => e);
  if (result instanceof OpenAI.BadRequestError) return result.message.replace(/^400 from /, '');
  if (result instanceof Error) throw result;
  return 'normal';
}

const admin = (path: string, method: string, body?: unknown) =>
  server.admin(path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'keys.yaml': KEYS }, scenarioFiles: { 'choose.yaml': SCENARIOS } });
});
afterAll(() => server.close());

describe('choosing a scenario', () => {
  it('takes the header, then the query parameter, the key, the session, the global one', async () => {
    expect((await admin('/scenario', 'PUT', { name: 'by_global' })).status).toBe(200);
    expect((await admin('/scenario?session=prec', 'PUT', { name: 'by_session' })).status).toBe(200);
    const keyed = openai('sk-keyed', 'prec');
    const headers = { 'x-mock-scenario': 'by_header' };
    const query = { mock_scenario: 'by_query' };
    expect(await answeredBy(keyed, { headers, query })).toBe('by_header');
    expect(await answeredBy(keyed, { query })).toBe('by_query');
    expect(await answeredBy(keyed)).toBe('by_key');
    expect(await answeredBy(openai('sk-plain', 'prec'))).toBe('by_session');
    expect(await answeredBy(openai('sk-plain', 'elsewhere'))).toBe('by_global');
    await admin('/scenario?session=prec', 'DELETE');
    expect(await answeredBy(openai('sk-plain', 'prec'))).toBe('by_global');
    await admin('/scenario', 'DELETE');
    expect(await answeredBy(openai('sk-plain', 'prec'))).toBe('normal');
  });

  it('refuses an unknown name with 400 in the route envelope, naming it and the known ones', async () => {
    const error = await openai('sk-plain', 'unknown')
      .chat.completions.create(ask, { headers: { 'x-mock-scenario': 'no_such' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(bad.message).toContain('"no_such"');
    expect(bad.message).toContain('by_header');
    expect(bad.param).toBe('x-mock-scenario');
    expect(bad.code).toBe('scenario_not_found');

    const anthropic = new Anthropic({ baseURL: server.url, apiKey: 'sk-plain', maxRetries: 0 });
    const viaMessages = await anthropic.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }, { query: { mock_scenario: 'no_such' } })
      .catch((e: unknown) => e);
    expect(viaMessages).toBeInstanceOf(Anthropic.BadRequestError);
    expect((viaMessages as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('"no_such"') },
    });
  });

  it('refuses an unknown or missing name on PUT /__admin/scenario', async () => {
    const unknown = await admin('/scenario', 'PUT', { name: 'no_such' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { message: expect.stringContaining('"no_such"'), param: 'name' } });
    const missing = await admin('/scenario', 'PUT', {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { param: 'name' } });
  });

  it('serves a request that misses the named scenario’s match normally, without taking a step', async () => {
    const client = openai('sk-plain', 'match');
    const headers = { 'x-mock-scenario': 'claude_only' };
    expect(await answeredBy(client, { headers })).toBe('normal');
    const journal = (await (await server.admin('/requests?session=match')).json()) as { requests: Array<{ scenario: string | null }> };
    expect(journal.requests.map((e) => e.scenario)).toEqual([null]);
    const anthropic = new Anthropic({ baseURL: server.url, apiKey: 'sk-plain', maxRetries: 0, defaultHeaders: { ...headers, 'x-mock-session': 'match' } });
    const error = await anthropic.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
  });

  it('refuses at load a key that names a scenario nobody declares', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgm-keys-'));
    writeFileSync(join(dir, 'keys.yaml'), 'keys:\n  - key: sk-a\n    scenario: missing_one\n');
    const started = startMockServer({ fixtures: dir, scenarios: mkdtempSync(join(tmpdir(), 'mgm-none-')), watch: false });
    await expect(started).rejects.toThrow(/keys\.yaml:3:15: keys\[0\]\.scenario: no scenario is named "missing_one"/);
  });
});
