// Where every answer came from: the x-mock-source header, the journal's source, step, fault and
// response as sent, and the log line (with the match decision at debug level).
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/state/journal.js';
import { openaiFor } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
  - name: greeting
    match: { contains: "hello" }
    reply: { text: "Hi there, friend." }
`;

const SCENARIOS = `
scenarios:
  - name: limited
    steps:
      - { error: rate_limit, times: 1 }
      - pass
  - name: cut
    steps: [ { fault: cut_stream, after_chunks: 2 } ]
`;

let server: TestServer;
const lines: string[] = [];

async function journal(session: string): Promise<JournalEntry[]> {
  return ((await (await server.admin(`/requests?session=${session}`)).json()) as { requests: JournalEntry[] }).requests;
}

const ask = (client: OpenAI, content: string) => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });

beforeAll(async () => {
  server = await startTestServer({
    fixtureFiles: { 'chat.yaml': FIXTURES },
    scenarioFiles: { 'steps.yaml': SCENARIOS },
    logLevel: 'debug',
    logger: (line) => lines.push(line),
  });
});
afterAll(() => server.close());

describe('x-mock-source and the journal', () => {
  it('names the fixture or generation, and the journal keeps the answer as sent', async () => {
    const client = openaiFor(server.url, 'plain');
    const matched = await ask(client, 'hello').withResponse();
    expect(matched.response.headers.get('x-mock-source')).toBe('fixture:greeting');
    const generated = await ask(client, 'something else').withResponse();
    expect(generated.response.headers.get('x-mock-source')).toBe('generated');
    const [first, second] = await journal('plain');
    expect(first).toMatchObject({ source: 'fixture:greeting', scenario_step: null, fault: null, upstream: null, recorded: null });
    expect(first!.response).toEqual({ status: 200, headers: expect.objectContaining({ 'x-mock-source': 'fixture:greeting' }), body: matched.data });
    expect(second!.source).toBe('generated');
  });

  it('names the scenario step that fired an error, and the step that passed after it', async () => {
    const client = openaiFor(server.url, 'limited', 'limited');
    const error = await ask(client, 'hello').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get('x-mock-source')).toBe('scenario:limited#0');
    const passed = await ask(client, 'hello').withResponse();
    expect(passed.response.headers.get('x-mock-source')).toBe('fixture:greeting');
    const [failed, served] = await journal('limited');
    expect(failed).toMatchObject({ status: 429, source: 'scenario:limited#0', scenario: 'limited', scenario_step: 0, fault: 'rate_limit' });
    expect(failed!.response).toMatchObject({ status: 429, body: { error: { type: 'rate_limit_error' } } });
    expect(served).toMatchObject({ status: 200, source: 'fixture:greeting', scenario_step: 1, fault: null });
  });

  it('journals a cut stream with its fault and the events sent before the cut', async () => {
    const client = openaiFor(server.url, 'cut', 'cut');
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], stream: true });
    await expect(async () => {
      for await (const _ of stream);
    }).rejects.toThrow();
    const [entry] = await journal('cut');
    expect(entry).toMatchObject({ source: 'scenario:cut#0', scenario_step: 0, fault: 'cut_stream' });
    const events = (entry!.response as { events: Array<{ event: string | null; data: { choices: unknown[] } }> }).events;
    expect(events.length).toBeGreaterThan(1);
    expect(events.every((e) => e.event === null && Array.isArray(e.data.choices))).toBe(true);
    expect(entry!.response?.headers).toMatchObject({ 'x-mock-source': 'scenario:cut#0', 'content-type': 'text/event-stream; charset=utf-8' });
  });

  it('is on errors of a route outside any operation too, exposed to scripts, and never on an unknown URL or the admin API', async () => {
    const missing = await fetch(`${server.url}/v1/nothing-here`, { headers: { origin: 'http://app.test' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-mock-source')).toBeNull();
    expect(missing.headers.get('access-control-expose-headers')).toContain('x-mock-source');
    const unauthorized = await fetch(`${server.url}/v1/models`);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('x-mock-source')).toBe('refused');
    expect((await server.admin('/health')).headers.get('x-mock-source')).toBeNull();
  });
});

describe('refused and state (SPEC 1): what nothing generated says so', () => {
  it('names a refused request and an answer from what the mock holds, in the header, journal, log and metrics', async () => {
    const client = openaiFor(server.url, 'kinds');
    const headerOf = (error: unknown) => (error as InstanceType<typeof OpenAI.APIError>).headers?.get('x-mock-source');
    const invalid = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: 'hello' as never }).catch((e: unknown) => e);
    expect([(invalid as InstanceType<typeof OpenAI.APIError>).status, headerOf(invalid)]).toEqual([400, 'refused']);
    const unknownModel = await client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect([(unknownModel as InstanceType<typeof OpenAI.APIError>).status, headerOf(unknownModel)]).toEqual([404, 'refused']);
    const uploaded = await client.files.create({ file: new File(['notes'], 'notes.txt'), purpose: 'user_data' }).withResponse();
    expect(uploaded.response.headers.get('x-mock-source')).toBe('state');
    expect((await client.files.list().withResponse()).response.headers.get('x-mock-source')).toBe('state');
    expect((await client.batches.list().withResponse()).response.headers.get('x-mock-source')).toBe('state');
    expect((await client.models.list().withResponse()).response.headers.get('x-mock-source')).toBe('state');
    const missingVideo = await client.videos.retrieve('video_nope').catch((e: unknown) => e);
    expect(headerOf(missingVideo)).toBe('refused');
    for (const version of ['v1beta', 'v1']) {
      const action = await fetch(`${server.url}/${version}/models/gemini-2.5-flash:frobnicate`, {
        method: 'POST',
        headers: { 'x-goog-api-key': 'k', 'content-type': 'application/json', 'x-mock-session': 'kinds' },
        body: '{}',
      });
      expect([action.status, action.headers.get('x-mock-source')], version).toEqual([404, 'refused']);
    }
    const sources = (await journal('kinds')).map((entry) => `${entry.status} ${entry.source}`);
    expect(sources).toEqual(['400 refused', '404 refused', '200 state', '200 state', '200 state', '200 state', '404 refused', '404 refused', '404 refused']);
    expect(lines).toContainEqual(expect.stringMatching(/ GET \/v1\/files files - 200 state \d+ms$/));
    const metrics = await (await server.admin('/metrics')).text();
    expect(metrics).toMatch(/mock_requests_total\{[^}]*source="state"[^}]*\} \d+/);
    expect(metrics).toMatch(/mock_requests_total\{[^}]*source="refused"[^}]*\} \d+/);
  });
});

describe('the log line', () => {
  it('starts with the local time and names the source, the fault and the duration', async () => {
    const line = lines.find((l) => l.includes('scenario:cut#0'));
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} POST \/v1\/chat\/completions chat-completions gpt-4o-mini 200 scenario:cut#0 cut_stream \d+ms$/);
    expect(lines).toContainEqual(expect.stringMatching(/ 200 fixture:greeting \d+ms$/));
  });

  it('at debug level adds the match decision: the fixture chosen, or the closest miss and its failed keys, and the step', () => {
    expect(lines).toContainEqual(expect.stringMatching(/match: fixture "greeting" chosen; no scenario$/));
    expect(lines).toContainEqual(expect.stringMatching(/match: no fixture matched; closest "greeting" \(.*chat\.yaml\) failed on contains; no scenario$/));
    expect(lines).toContainEqual(expect.stringMatching(/match: fixture "greeting" chosen; scenario "cut" step 0 fired cut_stream$/));
  });
});

describe('the journal response of a binary answer', () => {
  it('keeps its type and size, not its bytes', async () => {
    const client = openaiFor(server.url, 'binary');
    const image = await client.images.generate({ model: 'gpt-image-1', prompt: 'a boat', size: '64x64', response_format: 'url' });
    const picture = await fetch(image.data![0]!.url!, { headers: { 'x-mock-session': 'binary' } });
    const size = (await picture.arrayBuffer()).byteLength;
    const entries = await journal('binary');
    expect(entries.at(-1)!.response).toMatchObject({ status: 200, body: { type: 'image/png', size } });
  });
});
