// Record and replay, with no internet: one mock plays the real gateway (its own fixtures and
// scenarios), a second forwards to it and records, a third replays the recording alone.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import { GoogleGenAI } from '@google/genai';
import { generateText } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SECRET = 'sk-upstream-secret-7f3a';
const CLIENT_KEY = 'sk-client-key-91bd';

const UPSTREAM_FIXTURES = `
chat:
  - name: capital
    match: { contains: "capital of Norway" }
    reply: { text: "The capital of Norway is Oslo, a city by the fjord." }
  - name: weather-call
    match: { contains: "weather in Oslo", tools: [get_weather] }
    reply: { tool_calls: [ { name: get_weather, arguments: { city: Oslo } } ] }
  - name: weather-answer
    priority: 10
    match: { conversation: "sunny, 21" }
    reply: { text: "It is sunny and 21 degrees in Oslo." }
  - name: weather-tomorrow
    priority: 20
    match: { contains: "tomorrow" }
    reply: { text: "Tomorrow brings rain." }
  - name: thinking
    match: { contains: "think first" }
    reply: { text: "Forty-two.", reasoning: "The question is old and so is the answer." }
`;

const UPSTREAM_SCENARIOS = `
scenarios:
  - name: busy
    steps: [ { error: rate_limit, headers: { retry-after: "7" } } ]
  - name: cut
    steps: [ { fault: cut_stream, after_chunks: 2 } ]
`;

const tools = [
  { type: 'function' as const, function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
];

let upstream: TestServer;
let recorder: TestServer;
let recordDir: string;

const openai = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: CLIENT_KEY, maxRetries: 0 });
const anthropic = (url: string) => new Anthropic({ baseURL: url, apiKey: CLIENT_KEY, maxRetries: 0 });
const genai = (url: string) => new GoogleGenAI({ apiKey: CLIENT_KEY, httpOptions: { baseUrl: url } });

beforeAll(async () => {
  upstream = await startTestServer({ fixtureFiles: { 'up.yaml': UPSTREAM_FIXTURES }, scenarioFiles: { 'busy.yaml': UPSTREAM_SCENARIOS }, clock: 'manual' });
  recordDir = mkdtempSync(join(tmpdir(), 'mgm-recording-'));
  recorder = await startTestServer({ upstream: upstream.url, record: recordDir, upstreamKey: SECRET });
});
afterAll(async () => {
  await recorder.close();
  await upstream.close();
});

const question = [{ role: 'user' as const, content: 'What is the capital of Norway?' }];
const weather = [{ role: 'user' as const, content: 'What is the weather in Oslo?' }];

describe('recording through a second mock playing the gateway', () => {
  it('relays answers in each style, stream and not, and notes the upstream in the journal', async () => {
    const whole = await openai(recorder.url).chat.completions.create({ model: 'gpt-4o-mini', messages: question });
    expect(whole.choices[0]!.message.content).toBe('The capital of Norway is Oslo, a city by the fjord.');
    const stream = await anthropic(recorder.url).messages.create({ model: 'gpt-4o-mini', max_tokens: 200, messages: [{ role: 'user', content: 'Please think first: the answer?' }], stream: true });
    let text = '';
    for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    expect(text).toBe('Forty-two.');
    const gemini = await genai(recorder.url).models.generateContentStream({ model: 'gpt-4o-mini', contents: 'What is the capital of Norway, briefly?' });
    let joined = '';
    for await (const chunk of gemini) joined += chunk.text ?? '';
    expect(joined).toBe('The capital of Norway is Oslo, a city by the fjord.');
    type Entry = { source: string; upstream: { url: string; status: number; duration_ms: number } | null; recorded: string | null; usage: { input_tokens: number; output_tokens: number } | null; cost_usd: number | null };
    const entries = (await (await recorder.admin('/requests')).json()) as { requests: Entry[] };
    const first = entries.requests[0]!;
    expect(first.source).toBe('upstream');
    // The tokens the upstream counted, priced at this mock's catalog.
    expect(first.usage).toMatchObject({ input_tokens: whole.usage!.prompt_tokens, output_tokens: whole.usage!.completion_tokens });
    expect(first.cost_usd).toBeCloseTo((whole.usage!.prompt_tokens * 0.15 + whole.usage!.completion_tokens * 0.6) / 1e6, 12);
    expect(first.upstream).toMatchObject({ url: `${upstream.url}/v1/chat/completions`, status: 200 });
    expect(first.recorded).toMatch(/^chat-completions-gpt-4o-mini-[0-9a-f]{8}\.yaml$/);
    // Known only once the relayed answer ended (the relay's late notes), yet in the entry.
    expect(first.upstream!.duration_ms).toBeGreaterThan(0);
  });

  it('records a tool round trip over three turns', async () => {
    const client = openai(recorder.url);
    const call = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: weather, tools });
    const toolCall = call.choices[0]!.message.tool_calls![0]! as { id: string; function: { name: string; arguments: string } };
    expect(JSON.parse(toolCall.function.arguments)).toEqual({ city: 'Oslo' });
    const turn2 = [...weather, { role: 'assistant' as const, content: null, tool_calls: [toolCall as never] }, { role: 'tool' as const, tool_call_id: toolCall.id, content: 'sunny, 21' }];
    const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: turn2, tools });
    expect(answer.choices[0]!.message.content).toBe('It is sunny and 21 degrees in Oslo.');
    const turn3 = [...turn2, { role: 'assistant' as const, content: 'It is sunny and 21 degrees in Oslo.' }, { role: 'user' as const, content: 'And tomorrow?' }];
    const later = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: turn3, tools, stream: true });
    let text = '';
    for await (const chunk of later) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Tomorrow brings rain.');
  });

  it('records an upstream 429 with its retry-after', async () => {
    await upstream.admin('/scenario', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'busy' }) });
    try {
      const error = await openai(recorder.url).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Are you busy?' }] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('7');
    } finally {
      await upstream.admin('/scenario', { method: 'DELETE' });
    }
  });

  it('answers a recorded turn offline from then on, as recorded:NAME', async () => {
    // The watcher loads a recording once the directory has been quiet a moment.
    const ask = () => openai(recorder.url).chat.completions.create({ model: 'gpt-4o-mini', messages: question }).withResponse();
    await expect.poll(async () => (await ask()).response.headers.get('x-mock-source'), { timeout: 5000 }).toMatch(/^recorded:chat-completions-gpt-4o-mini-[0-9a-f]{8}$/);
    expect((await ask()).data.choices[0]!.message.content).toBe('The capital of Norway is Oslo, a city by the fjord.');
  });

  it('relays a stream the upstream cuts as cut, and records nothing of it', async () => {
    const before = readdirSync(recordDir).length;
    await upstream.admin('/scenario', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'cut' }) });
    try {
      const stream = await openai(recorder.url).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Tell me a long story.' }], stream: true });
      let text = '';
      let finished = false;
      const broke = await (async () => {
        for await (const chunk of stream) {
          text += chunk.choices[0]?.delta.content ?? '';
          if (chunk.choices[0]?.finish_reason) finished = true;
        }
      })().then(
        () => false,
        () => true,
      );
      expect(finished).toBe(false);
      expect(broke || text.length > 0).toBe(true);
    } finally {
      await upstream.admin('/scenario', { method: 'DELETE' });
    }
    expect(readdirSync(recordDir).length).toBe(before);
  });

  it('forwards the other families: token counts, model lists, images (recorded), video tasks', async () => {
    const counted = await anthropic(recorder.url).messages.countTokens({ model: 'gpt-4o-mini', messages: question });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const models = await openai(recorder.url).models.list();
    expect(models.data.map((m) => m.id)).toContain('gpt-4o-mini');
    const picture = await openai(recorder.url).images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse at dusk', size: '64x64' });
    expect(picture.data![0]!.b64_json).toBeTruthy();
    const video = await openai(recorder.url).videos.create({ model: 'sora-2', prompt: 'waves on a beach' });
    const again = await openai(recorder.url).videos.retrieve(video.id);
    expect(again.id).toBe(video.id);
    // The task is the upstream's: it holds it, the forwarding mock does not.
    expect(((await (await upstream.admin('/requests?path=/v1/videos')).json()) as { requests: unknown[] }).requests.length).toBe(1);
    const sources = ((await (await recorder.admin('/requests')).json()) as { requests: Array<{ path: string; source: string }> }).requests
      .filter((r) => !r.path.startsWith('/v1/chat') && r.path !== '/v1/messages')
      .map((r) => r.source);
    expect(new Set(sources)).toEqual(new Set(['upstream']));
  });

  it('records a video task when its content is downloaded', async () => {
    const client = openai(recorder.url);
    const video = await client.videos.create({ model: 'sora-2', prompt: 'a red kite over the dunes' });
    await upstream.advanceClock(60_000);
    expect((await client.videos.retrieve(video.id)).status).toBe('completed');
    const clip = Buffer.from(await (await client.videos.downloadContent(video.id)).arrayBuffer());
    expect(clip.toString('latin1', 4, 8)).toBe('ftyp');
    const recorded = readdirSync(join(recordDir, 'media')).filter((name) => name.endsWith('.mp4'));
    expect(recorded).toHaveLength(1);
    expect(readFileSync(join(recordDir, 'media', recorded[0]!)).equals(clip)).toBe(true);
  });

  it('writes no secret anywhere: not the upstream key, not the client key', async () => {
    const journal = await (await recorder.admin('/requests')).text();
    const files = readdirSync(recordDir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.yaml')).map((name) => readFileSync(join(recordDir, name), 'utf8'));
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const text of [journal, ...files]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(CLIENT_KEY);
    }
    // The upstream saw the replacement key, never the client's.
    const seen = (await (await upstream.admin('/requests')).json()) as { requests: unknown[] };
    expect(seen.requests.length).toBeGreaterThan(0);
  });
});

describe('replaying the recording alone', () => {
  let replayer: TestServer;
  beforeAll(async () => {
    replayer = await startTestServer({ fixtures: recordDir, clock: 'manual' });
  });
  afterAll(() => replayer.close());

  it('answers the same content, from the recording', async () => {
    const response = await openai(replayer.url).chat.completions.create({ model: 'gpt-4o-mini', messages: question }).withResponse();
    expect(response.data.choices[0]!.message.content).toBe('The capital of Norway is Oslo, a city by the fjord.');
    expect(response.response.headers.get('x-mock-source')).toMatch(/^fixture:chat-completions-gpt-4o-mini-/);
  });

  it('replays a conversation recorded in chat-completions in the messages and generate-content styles', async () => {
    const message = await anthropic(replayer.url).messages.create({ model: 'gpt-4o-mini', max_tokens: 100, messages: question });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'The capital of Norway is Oslo, a city by the fjord.' });
    const gemini = await genai(replayer.url).models.generateContent({ model: 'gpt-4o-mini', contents: 'What is the capital of Norway?' });
    expect(gemini.text).toBe('The capital of Norway is Oslo, a city by the fjord.');
  });

  it('replays through the Vercel AI SDK too', async () => {
    const openaiProvider = createOpenAI({ baseURL: `${replayer.url}/v1`, apiKey: CLIENT_KEY });
    const { text } = await generateText({ model: openaiProvider.chat('gpt-4o-mini'), prompt: 'What is the capital of Norway?' });
    expect(text).toBe('The capital of Norway is Oslo, a city by the fjord.');
  });

  it('replays the three turns turn by turn, also in the messages style', async () => {
    const client = anthropic(replayer.url);
    const anthropicTools = [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } }];
    const first = await client.messages.create({ model: 'gpt-4o-mini', max_tokens: 100, messages: weather, tools: anthropicTools });
    const use = first.content.find((block) => block.type === 'tool_use')!;
    expect(use).toMatchObject({ name: 'get_weather', input: { city: 'Oslo' } });
    const history = [...weather, { role: 'assistant' as const, content: first.content }, { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: use.id, content: 'sunny, 21' }] }];
    const second = await client.messages.create({ model: 'gpt-4o-mini', max_tokens: 100, messages: history, tools: anthropicTools });
    expect(second.content[0]).toMatchObject({ type: 'text', text: 'It is sunny and 21 degrees in Oslo.' });
    const third = await client.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 100,
      messages: [...history, { role: 'assistant', content: 'It is sunny and 21 degrees in Oslo.' }, { role: 'user', content: 'And tomorrow?' }],
      tools: anthropicTools,
    });
    expect(third.content[0]).toMatchObject({ type: 'text', text: 'Tomorrow brings rain.' });
  });

  it('serves the recorded video task, its content byte for byte', async () => {
    const client = openai(replayer.url);
    const video = await client.videos.create({ model: 'sora-2', prompt: 'a red kite over the dunes' });
    await replayer.advanceClock(60_000);
    const clip = Buffer.from(await (await client.videos.downloadContent(video.id)).arrayBuffer());
    const recorded = readdirSync(join(recordDir, 'media')).find((name) => name.endsWith('.mp4'))!;
    expect(clip.equals(readFileSync(join(recordDir, 'media', recorded)))).toBe(true);
  });

  it('serves the recorded picture byte for byte', async () => {
    const recorded = readdirSync(join(recordDir, 'media')).filter((name) => name.endsWith('.png'));
    expect(recorded).toHaveLength(1);
    const picture = await openai(replayer.url).images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse at dusk', size: '64x64' });
    expect(Buffer.from(picture.data![0]!.b64_json!, 'base64').equals(readFileSync(join(recordDir, 'media', recorded[0]!)))).toBe(true);
  });

  it('streams the recorded deltas', async () => {
    const stream = await anthropic(replayer.url).messages.create({ model: 'gpt-4o-mini', max_tokens: 200, messages: [{ role: 'user', content: 'Please think first: the answer?' }], stream: true });
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') deltas.push(event.delta.text);
    expect(deltas.join('')).toBe('Forty-two.');
    const file = readdirSync(recordDir).find((name) => name.startsWith('messages-'))!;
    const recorded = readFileSync(join(recordDir, file), 'utf8');
    expect(recorded).toContain('chunks:');
    expect(recorded).toContain('first_chunk_ms');
  });

  it('answers the recorded 429 with its retry-after in each style', async () => {
    const ask = [{ role: 'user' as const, content: 'Are you busy?' }];
    const viaOpenai = await openai(replayer.url).chat.completions.create({ model: 'gpt-4o-mini', messages: ask }).catch((e: unknown) => e);
    expect(viaOpenai).toBeInstanceOf(OpenAI.RateLimitError);
    expect((viaOpenai as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('7');
    const viaAnthropic = await anthropic(replayer.url).messages.create({ model: 'gpt-4o-mini', max_tokens: 10, messages: ask }).catch((e: unknown) => e);
    expect(viaAnthropic).toBeInstanceOf(Anthropic.RateLimitError);
    expect((viaAnthropic as InstanceType<typeof Anthropic.RateLimitError>).headers?.get('retry-after')).toBe('7');
  });
});

describe('an upstream that fails', () => {
  it('answers 502 in the style envelope naming the upstream when it refuses connections, and keeps serving', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const lonely = await startTestServer({ upstream: `http://127.0.0.1:${port}` });
    try {
      const error = await anthropic(lonely.url).messages.create({ model: 'gpt-4o-mini', max_tokens: 10, messages: question }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.InternalServerError);
      expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
      expect((error as Error).message).toContain(`http://127.0.0.1:${port}`);
      expect((await lonely.admin('/health')).status).toBe(200);
    } finally {
      await lonely.close();
    }
  });

  it('ends a forwarded request that hangs when the client cancels', async () => {
    // An upstream that never answers, and says when the request arrived and when it was given up.
    let arrived!: () => void;
    let closed!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const ended = new Promise<void>((resolve) => (closed = resolve));
    const hanging = createHttpServer((req, res) => {
      arrived();
      res.on('close', () => closed());
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const forwarding = await startTestServer({ upstream: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}` });
    try {
      const controller = new AbortController();
      const pending = openai(forwarding.url).chat.completions.create({ model: 'gpt-4o-mini', messages: question }, { signal: controller.signal }).catch((e: unknown) => e);
      await reached;
      controller.abort();
      expect(await pending).toBeInstanceOf(OpenAI.APIUserAbortError);
      // The upstream request ends too: the upstream sees its connection given up.
      await ended;
    } finally {
      await forwarding.close();
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });

  it('refuses to start with a record directory that cannot be written', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mgm-not-a-dir-')), 'file');
    (await import('node:fs')).writeFileSync(file, '');
    await expect(startMockServer({ upstream: 'http://127.0.0.1:9', record: join(file, 'inside') })).rejects.toThrow(/--record directory .*cannot be written/);
  });
});
