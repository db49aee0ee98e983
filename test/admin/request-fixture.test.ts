// Any journaled chat request becomes a fixture: GET answers its YAML, POST saves it under the
// fixtures directory, and after the reload the same request gets the same answer from it.
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SCENARIOS = `
scenarios:
  - name: limited
    steps:
      - { error: rate_limit, headers: { retry-after: "7" } }
`;

let server: TestServer;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: { 'limited.yaml': SCENARIOS } });
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: server.url, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

async function lastEntryId(): Promise<string> {
  const { requests } = (await (await server.admin('/requests')).json()) as { requests: Array<{ id: string }> };
  return requests.at(-1)!.id;
}

/** Saves request `id` as `file`, and waits until the reload has picked it up. */
async function save(id: string, file: string): Promise<Response> {
  const before = server.reloads();
  const response = await server.admin(`/requests/${id}/fixture`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ file }),
  });
  if (response.status === 201) await server.waitForReload(before);
  return response;
}

describe('a request as a fixture', () => {
  it('pins a generated chat-completions reply: the same request answers the same text from the fixture', async () => {
    const ask = { model: 'gpt-4o-mini', messages: [{ role: 'system' as const, content: 'Be brief.' }, { role: 'user' as const, content: 'Tell me about tides.' }] };
    const first = await openai.chat.completions.create(ask).withResponse();
    expect(first.response.headers.get('x-mock-source')).toBe('generated');
    const id = await lastEntryId();

    const shown = await server.admin(`/requests/${id}/fixture`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toMatch(/^text\/yaml/);
    const yaml = await shown.text();
    expect(yaml.split('\n')[0]).toBe('# last user message: Tell me about tides.');
    expect(yaml).toMatch(/fingerprint: [0-9a-f]{16}\n/);

    expect((await save(id, 'tides.yaml')).status).toBe(201);
    const again = await openai.chat.completions.create({ ...ask, temperature: 0.2, max_tokens: 4000 }).withResponse();
    expect(again.response.headers.get('x-mock-source')).toBe('fixture:tides');
    expect(again.data.choices[0]!.message.content).toBe(first.data.choices[0]!.message.content);
    expect(again.data.usage).toEqual(first.data.usage);
  });

  it('pins a streamed messages reply: the same request streams the same text from the fixture', async () => {
    const ask = { model: 'claude-sonnet-4-6', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'Describe a lighthouse.' }] };
    const deltasOf = async () => {
      const deltas: string[] = [];
      const stream = anthropic.messages.stream(ask).on('text', (delta) => deltas.push(delta));
      await stream.finalMessage();
      return deltas;
    };
    const first = await deltasOf();
    const id = await lastEntryId();
    expect((await save(id, 'lighthouse.yml')).status).toBe(201);

    // The recorded pieces are sent as the deltas, as they were split the first time.
    expect(await deltasOf()).toEqual(first);
    const { requests } = (await (await server.admin('/requests')).json()) as { requests: Array<{ source: string }> };
    expect(requests.at(-1)!.source).toBe('fixture:lighthouse');
  });

  it('pins a scenario 429 as an error reply that comes back with its retry-after, in any style', async () => {
    const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Are we throttled?' }] };
    const refused = await openai.chat.completions.create(ask, { headers: { 'x-mock-scenario': 'limited' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    const id = await lastEntryId();
    const yaml = await (await server.admin(`/requests/${id}/fixture`)).text();
    expect(yaml).toContain('kind: rate_limit');

    expect((await save(id, 'throttled.yaml')).status).toBe(201);
    const replayed = (await openai.chat.completions.create(ask).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(replayed).toBeInstanceOf(OpenAI.APIError);
    expect(replayed.status).toBe(429);
    expect(replayed.headers?.get('retry-after')).toBe('7');
    // The fingerprint leaves the style out: the messages style replays it in its own envelope.
    const inMessages = (await anthropic.messages.create({ ...ask, max_tokens: 64 }).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(inMessages).toBeInstanceOf(Anthropic.RateLimitError);
    expect(inMessages.headers?.get('retry-after')).toBe('7');
  });

  it('refuses a name with "..", an absolute path or no .yaml, and leaves an existing file unchanged (409)', async () => {
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Names matter.' }] });
    const id = await lastEntryId();
    for (const file of ['../outside.yaml', '/tmp/absolute.yaml', 'notes.txt', '.hidden.yaml', 'a/b.yaml', '']) {
      const response = await save(id, file);
      expect(response.status, file).toBe(400);
      expect(((await response.json()) as { error: { param: string } }).error.param).toBe('file');
    }
    writeFileSync(join(server.fixturesDir, 'taken.yaml'), '# mine\n');
    const taken = await save(id, 'taken.yaml');
    expect(taken.status).toBe(409);
    expect(readFileSync(join(server.fixturesDir, 'taken.yaml'), 'utf8')).toBe('# mine\n');
  });

  it('finds ids in every session; an unknown id is a 404 and a request that is not chat a 400', async () => {
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Elsewhere.' }] }, { headers: { 'x-mock-session': 'other' } });
    const id = await lastEntryId();
    expect((await server.admin(`/requests/${id}/fixture`)).status).toBe(200);
    expect((await server.admin('/requests/no-such-id/fixture')).status).toBe(404);
    await openai.models.list();
    expect((await server.admin(`/requests/${await lastEntryId()}/fixture`)).status).toBe(400);
  });
});
