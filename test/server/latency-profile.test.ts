// Per-model latency profiles: a catalog model's `latency:` spreads are what a realistic stream's
// pauses are drawn from, seeded, so a load test's measured time to first token is the configured one.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSchemas } from '../../src/config/schema.js';
import { ChunkDeadlines, drawMs } from '../../src/conversation/latency.js';
import { seededRandom } from '../../src/conversation/random.js';
import type { LatencyProfile } from '../../src/conversation/types.js';
import { pacingFor, REALISTIC } from '../../src/exchange/pacing.js';
import { answer, plainMock } from '../helpers/mock.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PROFILE: LatencyProfile = { firstTokenMs: { p50Ms: 400, p99Ms: 1200 }, tokenMs: { p50Ms: 20, p99Ms: 45 } };

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

describe('a latency profile', () => {
  it('draws spreads whose median and 99th percentile are the configured ones', () => {
    const random = seededRandom('spread');
    const draws = Array.from({ length: 20_000 }, () => drawMs(PROFILE.firstTokenMs, random));
    expect(percentile(draws, 50) / 400).toBeCloseTo(1, 1);
    expect(percentile(draws, 99) / 1200).toBeCloseTo(1, 1);
  });

  it('paces a realistic stream by its draws, seeded by the stream, with the fixture block still fixing what it names', () => {
    const pacing = pacingFor(undefined, undefined, 'realistic', PROFILE, [0, 'chatcmpl-1']);
    const random = seededRandom('latency', 0, 'chatcmpl-1');
    const first = drawMs(PROFILE.firstTokenMs, random);
    const second = first + drawMs(PROFILE.tokenMs, random);
    const deadlines = new ChunkDeadlines(pacing);
    expect(deadlines.first).toBe(first);
    expect([deadlines.next(), deadlines.next()]).toEqual([first, second]);
    const again = new ChunkDeadlines(pacingFor(undefined, undefined, 'realistic', PROFILE, [0, 'chatcmpl-1']));
    expect(again.next()).toBe(first);
    expect(new ChunkDeadlines(pacingFor(undefined, undefined, 'realistic', PROFILE, [0, 'chatcmpl-2'])).first).not.toBe(first);

    const fixed = new ChunkDeadlines(pacingFor(undefined, { firstChunkMs: 5 }, 'realistic', PROFILE, [0, 'chatcmpl-1']));
    expect(fixed.next()).toBe(5);
    expect(fixed.next()).toBe(5 + drawMs(PROFILE.tokenMs, seededRandom('latency', 0, 'chatcmpl-1')));
  });

  it('is left alone without realistic latency, and a model without one paces as before', () => {
    expect(pacingFor(undefined, undefined, 'none', PROFILE)).toEqual({ firstChunkMs: 0, chunkMs: 0 });
    expect(pacingFor('none', undefined, 'realistic', PROFILE)).toEqual({ firstChunkMs: 0, chunkMs: 0 });
    const plain = new ChunkDeadlines(pacingFor(undefined, undefined, 'realistic'));
    expect([plain.next(), plain.next(), plain.next()]).toEqual([REALISTIC.firstChunkMs, REALISTIC.firstChunkMs + REALISTIC.chunkMs, REALISTIC.firstChunkMs + 2 * REALISTIC.chunkMs]);
  });
});

const MODELS = [
  'models:',
  '  - id: slow-model',
  '    latency: { first_token_ms: { p50: 400, p99: 1200 }, token_ms: { p50: 20, p99: 45 } }',
  'chat:',
  '  - match: { contains: hello }',
  '    reply: { text: "Hi there." }',
].join('\n');

describe('a catalog model with `latency:`', () => {
  it('gives its realistic streams a plan drawing from its profile, seeded by the reply', async () => {
    const mock = plainMock({ fixtures: { 'models.yaml': MODELS } });
    const body = { model: 'slow-model', stream: true, messages: [{ role: 'user', content: 'hello' }] };
    const outcome = await answer(mock, 'POST /v1/chat/completions', { headers: { 'x-mock-latency': 'realistic' }, body });
    if (!('plan' in outcome) || outcome.plan.kind !== 'stream') throw new Error('expected a stream plan');
    const { pacing } = outcome.plan;
    expect(pacing).toMatchObject({ firstChunkMs: 400, chunkMs: 20, drawn: { firstChunk: PROFILE.firstTokenMs, chunk: PROFILE.tokenMs } });
    expect(new ChunkDeadlines(pacing).first).toBe(drawMs(PROFILE.firstTokenMs, seededRandom('latency', ...pacing.drawn!.seed)));
  });

  it('refuses a spread whose p99 is under its p50, naming the field', () => {
    const latency = { first_token_ms: { p50: 400, p99: 1200 }, token_ms: { p50: 20, p99: 10 } };
    const checked = fileSchemas().modelSchema.safeParse({ id: 'slow-model', latency });
    expect(checked.success).toBe(false);
    expect(checked.error?.issues).toEqual([expect.objectContaining({ path: ['latency', 'token_ms', 'p99'], message: 'p99 must be at least p50' })]);
  });
});

describe('streamed through the SDK', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ fixtureFiles: { 'models.yaml': MODELS.replace('p50: 400, p99: 1200', 'p50: 30, p99: 60').replace('p50: 20, p99: 45', 'p50: 1, p99: 2') } });
  });
  afterAll(() => server.close());

  it('streams the same text paced by the profile', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'slow-model', stream: true, messages: [{ role: 'user', content: 'hello' }] }, { headers: { 'x-mock-latency': 'realistic' } });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hi there.');
  });
});
