// GET /__admin/metrics: the Prometheus text format, parsed by a Prometheus text parser after a
// known set of requests (a batch's lines among them), counts exactly what was sent; the admin
// rules apply to it.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { toFile } from 'openai';
// @ts-expect-error the parser ships no types
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchFile, chatLines, jsonl } from '../batches/helpers.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Family {
  name: string;
  type: string;
  metrics: Array<{ labels?: Record<string, string>; value?: string; count?: string; buckets?: Record<string, string> }>;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': 'chat:\n  - name: greeting\n    match: { contains: hello }\n    reply: { text: "Hi there." }\n' } });
});
afterAll(() => server.close());

let lastText = '';

async function families(): Promise<Map<string, Family>> {
  const response = await server.admin('/metrics');
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  lastText = await response.text();
  const parsed = parsePrometheusTextFormat(lastText) as Family[];
  return new Map(parsed.map((family) => [family.name, family]));
}

const valueOf = (family: Family | undefined, labels: Record<string, string>): number =>
  Number(family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value ?? 0);

describe('GET /__admin/metrics', () => {
  it('counts requests by route, style, status and source, and their latency', async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const told = { input: 0, output: 0 };
    const tell = (usage: OpenAI.CompletionUsage | undefined) => {
      told.input += usage!.prompt_tokens;
      told.output += usage!.completion_tokens;
    };
    for (let i = 0; i < 3; i++) tell((await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] })).usage);
    tell((await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'something else' }] })).usage);
    await anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] });
    await expect(openai.chat.completions.create({ model: 'nope', messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow(/404/);
    await fetch(`${server.url}/v1/models`);

    const metrics = await families();
    const requests = metrics.get('mock_requests_total')!;
    expect(requests.type).toBe('COUNTER');
    const chat = { route: '/v1/chat/completions', style: 'chat-completions' };
    expect(valueOf(requests, { ...chat, status: '200', source: 'fixture:greeting' })).toBe(3);
    expect(valueOf(requests, { ...chat, status: '200', source: 'generated' })).toBe(1);
    expect(valueOf(requests, { ...chat, status: '404', source: 'refused' })).toBe(1);
    expect(valueOf(requests, { route: '/v1/messages', style: 'messages', status: '200', source: 'fixture:greeting' })).toBe(1);
    expect(valueOf(requests, { route: '/v1/models', style: 'models', status: '401' })).toBe(1);
    const latency = metrics.get('mock_request_duration_seconds')!;
    expect(latency.type).toBe('HISTOGRAM');
    // The parser keeps a histogram's buckets but not its labels: its count is read off the text.
    expect(lastText).toMatch(/^mock_request_duration_seconds_count\{route="\/v1\/chat\/completions",style="chat-completions"\} 5$/m);
    // Tokens and cost by model, as the SDK was told them, priced from the default catalog.
    const tokens = metrics.get('mock_tokens_total');
    expect(valueOf(tokens, { model: 'gpt-4o-mini', direction: 'input' })).toBe(told.input);
    expect(valueOf(tokens, { model: 'gpt-4o-mini', direction: 'output' })).toBe(told.output);
    const pricing = { input: 0.15, output: 0.6 };
    expect(valueOf(metrics.get('mock_cost_usd_total'), { model: 'gpt-4o-mini' })).toBeCloseTo((told.input * pricing.input + told.output * pricing.output) / 1e6, 12);
    // The admin API's own calls are not the model API's traffic.
    expect(requests.metrics.some((m) => m.labels?.route?.startsWith('/__admin'))).toBe(false);
  });

  it('shows open streams, memory held, reloads and reload errors', async () => {
    const before = await families();
    await server.writeFixture('broken.yaml', 'chat:\n  - reply: { text: [unclosed\n');
    const after = await families();
    expect(valueOf(after.get('mock_reloads'), {})).toBe(valueOf(before.get('mock_reloads'), {}) + 1);
    expect(valueOf(after.get('mock_reload_errors'), {})).toBe(valueOf(before.get('mock_reload_errors'), {}) + 1);
    expect(valueOf(after.get('mock_open_streams'), {})).toBe(0);
    expect(valueOf(after.get('mock_memory_held_bytes'), { kind: 'journal' })).toBeGreaterThan(0);
    await server.removeFixture('broken.yaml');
  });

  it("counts a batch's lines as the requests they stand for, tokens and cost too", async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 });
    const before = await families();
    const lines = chatLines(2, () => 'hello from a batch');
    const file = await openai.files.create({ file: await toFile(Buffer.from(batchFile(lines)), 'lines.jsonl'), purpose: 'batch' });
    const batch = await openai.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    await server.advanceClock(25 * 3600 * 1000);
    const done = await openai.batches.retrieve(batch.id);
    expect(done.status).toBe('completed');
    const answers = jsonl<{ response: { body: OpenAI.ChatCompletion } }>(await (await openai.files.content(done.output_file_id!)).text());
    const told = { input: 0, output: 0 };
    for (const { response } of answers) {
      told.input += response.body.usage!.prompt_tokens;
      told.output += response.body.usage!.completion_tokens;
    }

    const after = await families();
    const greeted = { route: '/v1/chat/completions', style: 'chat-completions', status: '200', source: 'fixture:greeting' };
    const added = (name: string, labels: Record<string, string>) => valueOf(after.get(name), labels) - valueOf(before.get(name), labels);
    expect(added('mock_requests_total', greeted)).toBe(2);
    expect(added('mock_tokens_total', { model: 'gpt-4o-mini', direction: 'input' })).toBe(told.input);
    expect(added('mock_tokens_total', { model: 'gpt-4o-mini', direction: 'output' })).toBe(told.output);
    expect(added('mock_cost_usd_total', { model: 'gpt-4o-mini' })).toBeCloseTo((told.input * 0.15 + told.output * 0.6) / 1e6, 12);
  });

  it('is refused to a page of another origin, as the rest of the admin API', async () => {
    const response = await fetch(`${server.url}/__admin/metrics`, { headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
  });
});
