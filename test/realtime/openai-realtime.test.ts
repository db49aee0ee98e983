// OpenAI Realtime through the openai SDK's own `OpenAIRealtimeWS`, over wss on the mock's port
// with its local CA trusted: a text turn from a chat fixture, a tool call as a function-call item,
// an audio turn whose transcript is a transcriptions fixture's, server VAD from the audio's
// silence, and a cancelled response; each turn journaled as style `realtime`.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioDigest } from '../../src/media/audio/hear.js';
import { listen } from '../helpers/events.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'mgm-rt-'));
/** One second of a loud tone, then the 500 ms of silence that end an utterance (what VAD commits). */
const spoken = Buffer.alloc(24_000 * 2);
for (let i = 0; i < 24_000; i++) spoken.writeInt16LE(Math.round(8000 * Math.sin(i / 5)), i * 2);
const silence = Buffer.alloc(24_000 * 2 * 0.5);

let mock: TestServer;
let ca: string;
beforeAll(async () => {
  mock = await startTestServer({
    dataDir,
    fixtureFiles: {
      'chat.yaml': [
        'chat:',
        '  - name: greeting',
        '    match: { contains: hello }',
        '    reply: { text: "Hi there, how can I help?" }',
        '  - name: weather',
        '    match: { contains: weather }',
        '    reply: { tool_calls: [{ name: get_weather, arguments: { city: Paris } }] }',
        '  - name: spoken',
        '    match: { contains: "book a table" }',
        '    reply: { text: "Your table is booked." }',
        '  - name: long',
        '    match: { contains: "tell me" }',
        '    reply: { text: "One two three four five six seven eight nine ten." }',
      ].join('\n'),
      'transcriptions.yaml': `transcriptions:\n  - name: booking\n    match: { sha256: ${audioDigest(Buffer.concat([spoken, silence]))} }\n    reply: { text: "Please book a table for two." }\n`,
    },
    scenarioFiles: {
      'socket.yaml': [
        'scenarios:',
        '  - name: slow_turn',
        '    steps: [{ fault: delay, delay_ms: 400 }]',
        '  - name: cut_turn',
        '    steps: [{ fault: cut_stream, after_chunks: 2 }]',
      ].join('\n'),
    },
  });
  ca = readFileSync((await mock.tlsCa())!, 'utf8');
});
afterAll(async () => {
  await mock.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Event = { type: string; [field: string]: unknown };

async function connect(headers: Record<string, string> = {}) {
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `https://localhost:${mock.port}/v1` });
  const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime', options: { ca, headers } }, client);
  const events: Event[] = [];
  rt.on('event', (event) => events.push(event as unknown as Event));
  rt.on('error', () => undefined);
  const next = async (type: string, after = 0): Promise<Event> => {
    let found: Event | undefined;
    await expect.poll(() => (found = events.slice(after).find((event) => event.type === type)), { timeout: 15_000, interval: 20 }).toBeTruthy();
    return found!;
  };
  let closed = false;
  rt.socket.on('close', () => (closed = true));
  await next('session.created');
  /** Sends a typed user message and asks for a response. */
  const say = (text: string) => {
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } });
    rt.send({ type: 'response.create' });
  };
  const audioOf = (from = 0) => Buffer.concat(events.slice(from).filter((event) => event.type === 'response.output_audio.delta').map((event) => Buffer.from(String(event.delta), 'base64')));
  return { rt, events, next, say, audioOf, closed: () => closed };
}

/** Appends PCM in 20 ms frames, as a microphone sends it. */
function append(rt: OpenAIRealtimeWS, pcm: Buffer): void {
  for (let at = 0; at < pcm.length; at += 960) rt.send({ type: 'input_audio_buffer.append', audio: pcm.subarray(at, at + 960).toString('base64') });
}

type Journaled = { style: string; source: string; body: { messages: Array<{ role: string; content: string }> } };
const journal = async (session: string) => ((await (await mock.admin(`/requests?session=${session}`)).json()) as { requests: Journaled[] }).requests;

describe('OpenAI Realtime over wss', () => {
  it('answers a text turn from a chat fixture, with usage in response.done', async () => {
    const { rt, events, next } = await connect({ 'x-mock-session': 'rt-text' });
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    await next('session.updated');
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello there' }] } });
    rt.send({ type: 'response.create' });
    const done = (await next('response.done')).response as { status: string; usage: { total_tokens: number }; output: Array<{ content: Array<{ text: string }> }> };
    expect(done.status).toBe('completed');
    expect(done.output[0]!.content[0]!.text).toBe('Hi there, how can I help?');
    expect(done.usage.total_tokens).toBeGreaterThan(0);
    const deltas = events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta).join('');
    expect(deltas).toBe('Hi there, how can I help?');
    rt.close();
    const { requests } = (await (await mock.admin('/requests?session=rt-text')).json()) as { requests: Array<{ style: string; path: string; source: string }> };
    expect(requests).toEqual([expect.objectContaining({ style: 'realtime', path: '/v1/realtime', source: 'fixture:greeting' })]);
  });

  it('answers over wss in a process that trusts the mock only through NODE_EXTRA_CA_CERTS', async () => {
    // Node reads NODE_EXTRA_CA_CERTS once, at start: a process of its own, as a user's test runner is.
    const program = `
      import OpenAI from 'openai';
      import { OpenAIRealtimeWS } from 'openai/realtime/ws';
      const client = new OpenAI({ apiKey: 'sk-test', baseURL: 'https://localhost:${mock.port}/v1' });
      const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime' }, client);
      rt.on('error', (error) => { console.error(error.message); process.exit(1); });
      rt.on('response.done', (event) => {
        console.log(event.response.output[0].content[0].text);
        rt.close();
      });
      rt.socket.on('open', () => {
        rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
        rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] } });
        rt.send({ type: 'response.create' });
      });`;
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: (await mock.tlsCa())! };
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', program], { env, timeout: 30_000 });
    expect(stdout.trim()).toBe('Hi there, how can I help?');
  });

  it('answers with audio and its transcript, and calls a tool as a function-call item', async () => {
    const { rt, events, next } = await connect();
    rt.send({ type: 'session.update', session: { type: 'realtime', tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] } });
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] } });
    rt.send({ type: 'response.create' });
    await next('response.done');
    const audio = Buffer.concat(events.filter((event) => event.type === 'response.output_audio.delta').map((event) => Buffer.from(String(event.delta), 'base64')));
    expect(audio.length).toBeGreaterThan(24_000);
    expect((await next('response.output_audio_transcript.done')).transcript).toBe('Hi there, how can I help?');
    const after = events.length;
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'what is the weather?' }] } });
    rt.send({ type: 'response.create' });
    const call = await next('response.function_call_arguments.done', after);
    expect(call).toMatchObject({ name: 'get_weather' });
    expect(JSON.parse(String(call.arguments))).toEqual({ city: 'Paris' });
    rt.close();
  });

  it('hears speech by server VAD, transcribes it by a fixture and answers it', async () => {
    const { rt, events, next } = await connect();
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], audio: { input: { transcription: { model: 'gpt-4o-mini-transcribe' }, turn_detection: { type: 'server_vad' } } } } });
    await next('session.updated');
    const all = Buffer.concat([spoken, silence]);
    for (let at = 0; at < all.length; at += 960) rt.send({ type: 'input_audio_buffer.append', audio: all.subarray(at, at + 960).toString('base64') });
    expect((await next('input_audio_buffer.speech_started')).audio_start_ms).toBe(0);
    expect((await next('input_audio_buffer.speech_stopped')).audio_end_ms).toBe(1000);
    expect((await next('conversation.item.input_audio_transcription.completed')).transcript).toBe('Please book a table for two.');
    const done = (await next('response.done')).response as { output: Array<{ content: Array<{ text: string }> }> };
    expect(done.output[0]!.content[0]!.text).toBe('Your table is booked.');
    expect(events.findIndex((event) => event.type === 'input_audio_buffer.committed')).toBeGreaterThan(0);
    rt.close();
  });

  it('cancels a playing response on response.cancel', async () => {
    const { rt, next } = await connect({ 'x-mock-latency': 'realistic' });
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] } });
    rt.send({ type: 'response.create' });
    await next('response.created');
    rt.send({ type: 'response.cancel' });
    const done = (await next('response.done')).response as { status: string; status_details: { reason: string } };
    expect(done).toMatchObject({ status: 'cancelled', status_details: { reason: 'client_cancelled' } });
    rt.close();
  });

  it('answers an event nested too deep with an invalid_json error, unparsed, and goes on', async () => {
    const { rt, next, events } = await connect();
    rt.socket.send(`${'['.repeat(150_000)}${']'.repeat(150_000)}`);
    const error = (await next('error')).error as { code: string; message: string };
    expect(error).toMatchObject({ code: 'invalid_json', message: 'The event is not valid JSON.' });
    const after = events.length;
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    await next('session.updated', after);
    rt.close();
  });

  it('answers a missing key with a 401 to the upgrade', async () => {
    const { WebSocket } = await import('ws');
    const socket = new WebSocket(`wss://localhost:${mock.port}/v1/realtime?model=gpt-realtime`, { ca });
    const status = await new Promise<number>((done) => socket.on('unexpected-response', (_request, response) => done(response.statusCode ?? 0)));
    expect(status).toBe(401);
  });

  it("transcribes the mock's own speech sent back to it as its text", async () => {
    const speaker = await connect();
    speaker.say('hello');
    await speaker.next('response.done');
    const speech = speaker.audioOf();
    speaker.rt.close();
    const { rt, next } = await connect();
    rt.send({ type: 'session.update', session: { type: 'realtime', audio: { input: { transcription: { model: 'gpt-4o-mini-transcribe' }, turn_detection: null } } } });
    await next('session.updated');
    append(rt, Buffer.concat([speech, Buffer.alloc(4_800)]));
    rt.send({ type: 'input_audio_buffer.commit' });
    expect((await next('conversation.item.input_audio_transcription.completed')).transcript).toBe('Hi there, how can I help?');
    rt.close();
  });

  it("ends an utterance after the session's silence_duration_ms", async () => {
    const { rt, next } = await connect();
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], audio: { input: { turn_detection: { type: 'server_vad', silence_duration_ms: 200, create_response: false } } } } });
    await next('session.updated');
    // 300 ms of quiet: under the default 500 ms, over the session's 200 ms.
    append(rt, Buffer.concat([spoken, Buffer.alloc(24_000 * 2 * 0.3)]));
    expect((await next('input_audio_buffer.speech_stopped')).audio_end_ms).toBe(1000);
    rt.close();
  });

  it('truncates a spoken item at audio_end_ms, cutting its transcript to the words heard', async () => {
    const { rt, events, next, say, audioOf } = await connect({ 'x-mock-session': 'rt-truncate' });
    say('tell me a count');
    const done = (await next('response.done')).response as { output: Array<{ id: string }> };
    const playedMs = Math.floor(audioOf().length / 48);
    const itemId = done.output[0]!.id;
    rt.send({ type: 'conversation.item.truncate', item_id: itemId, content_index: 0, audio_end_ms: Math.floor(playedMs / 2) });
    expect(await next('conversation.item.truncated')).toMatchObject({ item_id: itemId, audio_end_ms: Math.floor(playedMs / 2) });
    rt.send({ type: 'conversation.item.truncate', item_id: itemId, content_index: 0, audio_end_ms: playedMs * 4 });
    expect(((await next('error')).error as { param: string }).param).toBe('audio_end_ms');
    const after = events.length;
    say('hello');
    await next('response.done', after);
    rt.close();
    const [, second] = await journal('rt-truncate');
    const told = second!.body.messages.find((message) => message.role === 'assistant')!.content;
    expect(told.split(' ').length).toBeGreaterThan(1);
    expect(told.split(' ').length).toBeLessThan(10);
    expect('One two three four five six seven eight nine ten.'.startsWith(told)).toBe(true);
  });

  it("waits a scenario's delay before the turn, and a cut drops the socket mid-response", async () => {
    const slow = await connect({ 'x-mock-scenario': 'slow_turn' });
    slow.rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    await slow.next('session.updated');
    const askedMs = performance.now();
    slow.say('hello');
    await slow.next('response.created');
    expect(performance.now() - askedMs).toBeGreaterThanOrEqual(400);
    slow.rt.close();

    const cut = await connect({ 'x-mock-scenario': 'cut_turn', 'x-mock-session': 'rt-cut' });
    cut.rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    await cut.next('session.updated');
    cut.say('hello');
    await expect.poll(cut.closed, { timeout: 15_000, interval: 20 }).toBe(true);
    expect(cut.events.filter((event) => event.type === 'response.output_text.delta')).toHaveLength(2);
    expect(cut.events.some((event) => event.type === 'response.done')).toBe(false);
    expect((await journal('rt-cut'))[0]!.source).toBe('scenario:cut_turn#0');
  });

  it('shows each turn in the inspector while the socket is still open', async () => {
    const watcher = await listen(`${mock.url}/__admin/events`);
    const { rt, next, say, closed } = await connect({ 'x-mock-session': 'rt-watched' });
    say('hello');
    await next('response.done');
    const [entry] = await watcher.until('request', 1);
    expect(entry!.data).toMatchObject({ style: 'realtime', path: '/v1/realtime', session: 'rt-watched', source: 'fixture:greeting' });
    expect(closed()).toBe(false);
    rt.close();
    await watcher.close();
  });
});
