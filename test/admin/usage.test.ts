// Usage and cost (SPEC 17): each journal entry carries the tokens the answer reported to the
// official SDKs and the cost at the fixtures file's own pricing; GET /__admin/usage totals them
// per session and model.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/state/journal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
models:
  - { id: priced-gpt, pricing: { input: 2, cached_input: 0.5, output: 8 } }
  - { id: priced-claude, pricing: { input: 3, output: 15 } }
  - { id: priced-gemini, reasoning: true, pricing: { input: 0.3, output: 2.5 } }
  - { id: unpriced }
  - { id: priced-image, kind: image, pricing: { image: { 1024x1024: 0.04 } } }
  - { id: priced-audio, pricing: { input: 2.5, output: 10, audio_output: 64 } }
`;

const PRICES = { 'priced-gpt': [2, 8], 'priced-claude': [3, 15], 'priced-gemini': [0.3, 2.5] } as const;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'models.yaml': FIXTURES } });
});
afterAll(() => server.close());

const headers = (session: string) => ({ 'x-mock-session': session });

async function journal(session: string): Promise<JournalEntry[]> {
  return ((await (await server.admin(`/requests?session=${session}`)).json()) as { requests: JournalEntry[] }).requests;
}

const price = (model: keyof typeof PRICES, input: number, output: number) => (input * PRICES[model][0] + output * PRICES[model][1]) / 1e6;

describe('usage and cost on every journal entry', () => {
  it('equal what each SDK was told, priced from the fixtures file', async () => {
    const session = 'sdks';
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', defaultHeaders: headers(session) });
    const chat = await openai.chat.completions.create({ model: 'priced-gpt', messages: [{ role: 'user', content: 'Count to five.' }] });
    const response = await openai.responses.create({ model: 'priced-gpt', input: 'Name three colours.' });
    const anthropic = new Anthropic({ baseURL: server.url, apiKey: 'k', defaultHeaders: headers(session) });
    const message = await anthropic.messages.create({ model: 'priced-claude', max_tokens: 200, messages: [{ role: 'user', content: 'Say hi.' }] });
    const genai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: server.url, headers: headers(session) } });
    const content = await genai.models.generateContent({ model: 'priced-gemini', contents: 'Why is the sky blue?', config: { thinkingConfig: { includeThoughts: true } } });
    const gemini = content.usageMetadata!;
    const told = [
      ['priced-gpt', chat.usage!.prompt_tokens, chat.usage!.completion_tokens, 0],
      ['priced-gpt', response.usage!.input_tokens, response.usage!.output_tokens, 0],
      ['priced-claude', message.usage.input_tokens, message.usage.output_tokens, 0],
      ['priced-gemini', gemini.promptTokenCount!, gemini.candidatesTokenCount! + (gemini.thoughtsTokenCount ?? 0), gemini.thoughtsTokenCount ?? 0],
    ] as const;
    expect(told[3][3]).toBeGreaterThan(0);
    const entries = await journal(session);
    expect(entries.map((e) => [e.model, e.usage!.input_tokens, e.usage!.output_tokens, e.usage!.reasoning_tokens])).toEqual(told);
    entries.forEach((entry, i) => expect(entry.cost_usd).toBeCloseTo(price(told[i]![0], told[i]![1], told[i]![2]), 12));
  });

  it('is null without pricing, and an image is priced per picture by size', async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', defaultHeaders: headers('media') });
    await openai.chat.completions.create({ model: 'unpriced', messages: [{ role: 'user', content: 'hi' }] });
    await openai.images.generate({ model: 'priced-image', prompt: 'a red kite', n: 2, size: '1024x1024' });
    await openai.models.list();
    const [chat, images, list] = await journal('media');
    expect([chat!.usage?.input_tokens, chat!.cost_usd]).toEqual([expect.any(Number), null]);
    expect(images!.cost_usd).toBeCloseTo(0.08, 12);
    expect([list!.usage, list!.cost_usd]).toEqual([null, null]);
  });
});

describe('a chat answer said aloud', () => {
  it('counts its audio tokens in the output, at the audio price, and verify holds the cost to it', async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', defaultHeaders: headers('spoken') });
    const completion = await openai.chat.completions.create({
      model: 'priced-audio',
      messages: [{ role: 'user', content: 'say something' }],
      modalities: ['text', 'audio'],
      audio: { voice: 'alloy', format: 'wav' },
    });
    const told = completion.usage!;
    const spoken = told.completion_tokens_details!.audio_tokens!;
    expect(spoken).toBeGreaterThan(0);
    const [entry] = await journal('spoken');
    expect(entry!.usage).toMatchObject({ input_tokens: told.prompt_tokens, output_tokens: told.completion_tokens, audio_output_tokens: spoken });
    const cost = (told.prompt_tokens * 2.5 + (told.completion_tokens - spoken) * 10 + spoken * 64) / 1e6;
    expect(entry!.cost_usd).toBeCloseTo(cost, 12);
    const total = (await (await server.admin('/usage?session=spoken')).json()) as { total: { output_tokens: number; cost_usd: number } };
    expect(total.total).toMatchObject({ output_tokens: told.completion_tokens, cost_usd: entry!.cost_usd });
    const verified = await server.admin('/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session: 'spoken', expect: [{ max_cost_usd: cost }, { max_cost_usd: (told.prompt_tokens * 2.5 + told.completion_tokens * 10) / 1e6 }] }),
    });
    expect(((await verified.json()) as { results: Array<{ ok: boolean }> }).results.map((r) => r.ok)).toEqual([true, false]);
  });
});

describe('GET /__admin/usage', () => {
  it('totals each session, per model, and all sessions together', async () => {
    const client = (session: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', defaultHeaders: headers(session) });
    const a1 = await client('usage-a').chat.completions.create({ model: 'priced-gpt', messages: [{ role: 'user', content: 'one' }] });
    const a2 = await client('usage-a').chat.completions.create({ model: 'unpriced', messages: [{ role: 'user', content: 'two' }] });
    const b1 = await client('usage-b').chat.completions.create({ model: 'priced-gpt', messages: [{ role: 'user', content: 'three' }] });
    const one = (await (await server.admin('/usage?session=usage-a')).json()) as { sessions: unknown[]; total: unknown };
    const cost = price('priced-gpt', a1.usage!.prompt_tokens, a1.usage!.completion_tokens);
    const gpt = { model: 'priced-gpt', requests: 1, input_tokens: a1.usage!.prompt_tokens, output_tokens: a1.usage!.completion_tokens, cost_usd: expect.closeTo(cost, 12), unpriced: 0 };
    const unpriced = { model: 'unpriced', requests: 1, input_tokens: a2.usage!.prompt_tokens, output_tokens: a2.usage!.completion_tokens, cost_usd: 0, unpriced: 1 };
    const total = {
      requests: 2,
      input_tokens: a1.usage!.prompt_tokens + a2.usage!.prompt_tokens,
      output_tokens: a1.usage!.completion_tokens + a2.usage!.completion_tokens,
      cost_usd: expect.closeTo(cost, 12),
      unpriced: 1,
    };
    expect(one).toEqual({ sessions: [{ session: 'usage-a', ...total, by_model: [gpt, unpriced] }], total });
    const all = (await (await server.admin('/usage')).json()) as { sessions: Array<{ session: string }>; total: { requests: number; input_tokens: number } };
    expect(all.sessions.map((s) => s.session)).toEqual(expect.arrayContaining(['usage-a', 'usage-b']));
    const sum = (await Promise.all(all.sessions.map(async (s) => journal(s.session)))).flat();
    expect(all.total.requests).toBe(sum.length);
    expect(b1.usage!.prompt_tokens).toBeGreaterThan(0);
  });
});

describe('totals over a journal that forgets its oldest entries', () => {
  let small: TestServer;
  let tight: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ fixtureFiles: { 'models.yaml': FIXTURES }, journalMax: 3 });
    tight = await startTestServer({ fixtureFiles: { 'models.yaml': FIXTURES }, sessionMemoryLimit: '64kb' });
  });
  afterAll(async () => {
    await small.close();
    await tight.close();
  });

  it('count only the entries a full session budget left in the journal', async () => {
    const openai = new OpenAI({ baseURL: `${tight.url}/v1`, apiKey: 'k', defaultHeaders: headers('tight') });
    const long = 'Describe this parcel. '.repeat(100);
    for (let i = 0; i < 40; i += 1) await openai.chat.completions.create({ model: 'priced-gpt', messages: [{ role: 'user', content: `${i}: ${long}` }] });
    const kept = ((await (await tight.admin('/requests?session=tight')).json()) as { requests: JournalEntry[] }).requests;
    expect(kept.length).toBeLessThan(40);
    const total = ((await (await tight.admin('/usage?session=tight')).json()) as { total: Record<string, number> }).total;
    expect(total).toEqual({
      requests: kept.length,
      input_tokens: kept.reduce((sum, entry) => sum + entry.usage!.input_tokens, 0),
      output_tokens: kept.reduce((sum, entry) => sum + entry.usage!.output_tokens, 0),
      cost_usd: expect.closeTo(kept.reduce((sum, entry) => sum + entry.cost_usd!, 0), 12),
      unpriced: 0,
    });
  });

  it('count only the entries the journal still holds, and nothing once it is cleared', async () => {
    const openai = new OpenAI({ baseURL: `${small.url}/v1`, apiKey: 'k', defaultHeaders: headers('short') });
    for (const word of ['one', 'two', 'three', 'four', 'five']) await openai.chat.completions.create({ model: 'priced-gpt', messages: [{ role: 'user', content: `Say ${word} and then explain it.` }] });
    const kept = ((await (await small.admin('/requests?session=short')).json()) as { requests: JournalEntry[] }).requests;
    expect(kept).toHaveLength(3);
    const usage = async () => ((await (await small.admin('/usage?session=short')).json()) as { total: Record<string, number> }).total;
    const input = kept.reduce((sum, entry) => sum + entry.usage!.input_tokens, 0);
    const output = kept.reduce((sum, entry) => sum + entry.usage!.output_tokens, 0);
    const cost = kept.reduce((sum, entry) => sum + entry.cost_usd!, 0);
    expect(await usage()).toEqual({ requests: 3, input_tokens: input, output_tokens: output, cost_usd: expect.closeTo(cost, 12), unpriced: 0 });
    const verified = await small.verify([{ max_tokens: input + output }, { max_tokens: input + output - 1 }], { session: 'short' });
    expect(verified.results.map((result) => result.ok)).toEqual([true, false]);
    await small.admin('/requests?session=short', { method: 'DELETE' });
    expect(await usage()).toEqual({ requests: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, unpriced: 0 });
  });
});
