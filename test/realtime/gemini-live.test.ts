// Gemini Live through @google/genai's own `live.connect`, on the mock's port: a text turn from a
// chat fixture with usage at turnComplete, an audio turn (16 kHz speech in, its transcript a
// transcriptions fixture's, 24 kHz PCM and its transcript out), a tool call answered with
// sendToolResponse, barge-in while a reply plays, the vendor's close codes for a bad model and a
// scenario's error, the scenario faults on the socket, the other live model ids, and the same
// over wss from a process that trusts the mock's CA; each turn journaled as style `live`.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GoogleGenAI, Modality, type LiveServerMessage, type Session } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioDigest } from '../../src/media/audio/hear.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const RATE = 16_000;
/** One second of a loud tone at 16 kHz, then the 500 ms of silence that end an utterance. */
const spoken = Buffer.alloc(RATE * 2);
for (let i = 0; i < RATE; i++) spoken.writeInt16LE(Math.round(8000 * Math.sin(i / 5)), i * 2);
const utterance = Buffer.concat([spoken, Buffer.alloc(RATE)]);
const MODEL = 'gemini-live-2.5-flash-preview';

const dataDir = mkdtempSync(join(tmpdir(), 'mgm-live-'));
let mock: TestServer;
beforeAll(async () => {
  mock = await startTestServer({
    dataDir,
    scenarioFiles: shippedScenarioFiles(),
    fixtureFiles: {
      'chat.yaml': [
        'chat:',
        '  - name: greeting',
        '    match: { contains: hello }',
        '    reply: { text: "Hi there, how can I help?" }',
        '  - name: weather-answer',
        '    match: { after_tool: get_weather }',
        '    reply: { text: "It is sunny in Paris." }',
        '  - name: weather',
        '    match: { contains: weather }',
        '    reply: { tool_calls: [{ name: get_weather, arguments: { city: Paris } }] }',
        '  - name: booking',
        '    match: { contains: "book a table" }',
        '    reply: { text: "Your table is booked." }',
      ].join('\n'),
      'transcriptions.yaml': `transcriptions:\n  - name: booking\n    match: { sha256: ${audioDigest(utterance)} }\n    reply: { text: "Please book a table for two." }\n`,
    },
  });
});
afterAll(async () => {
  await mock.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Closed {
  code: number;
  reason: string;
}

function client(headers: Record<string, string> = {}, apiKey = 'gemini-key') {
  return new GoogleGenAI({ apiKey, httpOptions: { baseUrl: mock.url, headers } });
}

async function connect(config: Parameters<GoogleGenAI['live']['connect']>[0]['config'], headers: Record<string, string> = {}, model = MODEL) {
  const messages: LiveServerMessage[] = [];
  let closed: Closed | undefined;
  const session: Session = await client(headers).live.connect({
    model,
    config,
    callbacks: { onmessage: (message) => messages.push(message), onclose: (event) => (closed = { code: event.code, reason: event.reason }) },
  });
  const next = async (found: (message: LiveServerMessage) => boolean, after = 0): Promise<LiveServerMessage> => {
    let hit: LiveServerMessage | undefined;
    await expect.poll(() => (hit = messages.slice(after).find(found)), { timeout: 15_000, interval: 20 }).toBeTruthy();
    return hit!;
  };
  return { session, messages, next, closed: () => closed };
}

const textOf = (messages: LiveServerMessage[]) => messages.map((message) => message.serverContent?.modelTurn?.parts?.map((part) => part.text ?? '').join('') ?? '').join('');
const turnComplete = (message: LiveServerMessage) => message.serverContent?.turnComplete === true;

/** Sends `pcm` as the SDK's realtime input in 20 ms frames. */
function say(session: Session, pcm: Buffer): void {
  for (let at = 0; at < pcm.length; at += RATE / 50 * 2) session.sendRealtimeInput({ audio: { data: pcm.subarray(at, at + (RATE / 50) * 2).toString('base64'), mimeType: `audio/pcm;rate=${RATE}` } });
}

describe('Gemini Live through live.connect', () => {
  it('answers a text turn from a chat fixture, with usageMetadata at turnComplete, journaled as style live', async () => {
    const { session, messages, next } = await connect({ responseModalities: [Modality.TEXT] }, { 'x-mock-session': 'live-text' });
    session.sendClientContent({ turns: 'hello there' });
    const done = await next(turnComplete);
    expect(textOf(messages)).toBe('Hi there, how can I help?');
    expect(messages.some((message) => message.serverContent?.generationComplete)).toBe(true);
    expect(done.usageMetadata).toMatchObject({ promptTokenCount: expect.any(Number), responseTokenCount: expect.any(Number) });
    expect(done.usageMetadata!.totalTokenCount).toBeGreaterThan(0);
    session.close();
    const { requests } = (await (await mock.admin('/requests?session=live-text')).json()) as { requests: Array<{ style: string; path: string; model: string; source: string }> };
    expect(requests).toEqual([expect.objectContaining({ style: 'live', path: '/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent', model: MODEL, source: 'fixture:greeting' })]);
  });

  it.each(['gemini-2.5-flash-native-audio-preview-09-2025', 'gemini-2.0-flash-live-001'])('takes the live model %s', async (model) => {
    const { session, messages, next } = await connect({ responseModalities: [Modality.TEXT] }, {}, model);
    session.sendClientContent({ turns: 'hello' });
    await next(turnComplete);
    expect(textOf(messages)).toBe('Hi there, how can I help?');
    session.close();
  });

  it('answers over wss, the mock trusted through NODE_EXTRA_CA_CERTS as a user trusts it', async () => {
    // Node reads NODE_EXTRA_CA_CERTS once, at start: a process of its own, as a user's test runner is.
    const program = `
      import { GoogleGenAI, Modality } from '@google/genai';
      const ai = new GoogleGenAI({ apiKey: 'gemini-key', httpOptions: { baseUrl: 'https://localhost:${mock.port}' } });
      let reply = '';
      let finished;
      const turn = new Promise((resolve) => (finished = resolve));
      const session = await ai.live.connect({
        model: '${MODEL}',
        config: { responseModalities: [Modality.TEXT] },
        callbacks: { onmessage: (message) => {
          reply += message.serverContent?.modelTurn?.parts?.map((part) => part.text ?? '').join('') ?? '';
          if (message.serverContent?.turnComplete) finished();
        } },
      });
      session.sendClientContent({ turns: 'hello' });
      await turn;
      session.close();
      console.log(reply);`;
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: (await mock.tlsCa())! };
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', program], { env, timeout: 30_000 });
    expect(stdout.trim()).toBe('Hi there, how can I help?');
  });

  it('hears 16 kHz speech, transcribes it by a fixture and answers with 24 kHz PCM and its transcript', async () => {
    const { session, messages, next } = await connect({ responseModalities: [Modality.AUDIO], inputAudioTranscription: {}, outputAudioTranscription: {} });
    say(session, utterance);
    expect((await next((message) => message.serverContent?.inputTranscription !== undefined)).serverContent!.inputTranscription!.text).toBe('Please book a table for two.');
    const done = await next(turnComplete);
    const audio = messages.flatMap((message) => message.serverContent?.modelTurn?.parts ?? []).map((part) => part.inlineData!);
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.every((data) => data.mimeType === 'audio/pcm;rate=24000')).toBe(true);
    expect(Buffer.concat(audio.map((data) => Buffer.from(data.data!, 'base64'))).length).toBeGreaterThan(24_000);
    expect(messages.map((message) => message.serverContent?.outputTranscription?.text ?? '').join('')).toBe('Your table is booked.');
    expect(done.usageMetadata?.responseTokensDetails).toEqual([{ modality: 'AUDIO', tokenCount: expect.any(Number) }]);
    session.close();
  });

  it('bounds an utterance by activityStart and activityEnd when automatic detection is off', async () => {
    const { session, messages, next } = await connect({ responseModalities: [Modality.TEXT], inputAudioTranscription: {}, realtimeInputConfig: { automaticActivityDetection: { disabled: true } } });
    session.sendRealtimeInput({ activityStart: {} });
    say(session, utterance);
    session.sendRealtimeInput({ activityEnd: {} });
    expect((await next((message) => message.serverContent?.inputTranscription !== undefined)).serverContent!.inputTranscription!.text).toBe('Please book a table for two.');
    await next(turnComplete);
    expect(textOf(messages)).toBe('Your table is booked.');
    session.close();
  });

  it('calls a tool and continues the turn with the tool response', async () => {
    const tools = [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }];
    const { session, messages, next } = await connect({ responseModalities: [Modality.TEXT], tools });
    session.sendClientContent({ turns: 'what is the weather?' });
    const call = (await next((message) => message.toolCall !== undefined)).toolCall!.functionCalls![0]!;
    expect(call).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
    expect(call.id).toBeTruthy();
    const after = messages.length;
    session.sendToolResponse({ functionResponses: [{ id: call.id, name: call.name, response: { output: { sky: 'sunny' } } }] });
    await next(turnComplete, after);
    expect(textOf(messages.slice(after))).toBe('It is sunny in Paris.');
    session.close();
  });

  it('interrupts a playing reply when the user speaks', async () => {
    const { session, next } = await connect({ responseModalities: [Modality.AUDIO] }, { 'x-mock-latency': 'realistic' });
    session.sendRealtimeInput({ text: 'hello' });
    await next((message) => message.serverContent?.modelTurn !== undefined);
    say(session, spoken.subarray(0, RATE / 5));
    expect((await next((message) => message.serverContent?.interrupted === true)).serverContent).toEqual({ interrupted: true });
    session.close();
  });

  it('closes with 1008 for a model that is not a live model, and 1011 naming the status for a scenario error', async () => {
    let closed: Closed | undefined;
    void client().live.connect({ model: 'gemini-2.5-flash', callbacks: { onmessage: () => undefined, onclose: (event) => (closed = { code: event.code, reason: event.reason }) } });
    await expect.poll(() => closed, { timeout: 15_000, interval: 20 }).toBeTruthy();
    expect(closed!.code).toBe(1008);
    expect(closed!.reason).toContain('models/gemini-2.5-flash is not found');

    const { session, closed: limited } = await connect({ responseModalities: [Modality.TEXT] }, { 'x-mock-scenario': 'rate_limit' });
    session.sendClientContent({ turns: 'hello' });
    await expect.poll(limited, { timeout: 15_000, interval: 20 }).toBeTruthy();
    expect(limited()!.code).toBe(1011);
    expect(limited()!.reason).toMatch(/^RESOURCE_EXHAUSTED/);
  });

  it('closes with 1007 for a message nested too deep, without parsing it', async () => {
    const { session, closed } = await connect({ responseModalities: [Modality.TEXT] });
    session.conn.send(`${'['.repeat(150_000)}${']'.repeat(150_000)}`);
    await expect.poll(closed, { timeout: 15_000, interval: 20 }).toBeTruthy();
    expect(closed()).toEqual({ code: 1007, reason: 'Invalid JSON payload received.' });
  });

  it('drops the socket mid-reply under a cut_stream scenario, with no turnComplete', async () => {
    const { session, messages, closed } = await connect({ responseModalities: [Modality.TEXT] }, { 'x-mock-scenario': 'cut_stream' });
    session.sendClientContent({ turns: 'hello' });
    await expect.poll(closed, { timeout: 15_000, interval: 20 }).toBeTruthy();
    expect(closed()!.code).toBe(1006);
    expect(messages.filter((message) => message.serverContent?.modelTurn).length).toBe(3);
    expect(messages.some(turnComplete)).toBe(false);
  });

  it('closes with 1011 naming the status after its chunks under a stream_error scenario, and drops the socket before any reply under reset', async () => {
    const errored = await connect({ responseModalities: [Modality.TEXT] }, { 'x-mock-scenario': 'stream_error' });
    errored.session.sendClientContent({ turns: 'hello' });
    await expect.poll(errored.closed, { timeout: 15_000, interval: 20 }).toBeTruthy();
    expect(errored.closed()!.code).toBe(1011);
    expect(errored.closed()!.reason).toMatch(/^INTERNAL/);
    expect(errored.messages.filter((message) => message.serverContent?.modelTurn).length).toBe(3);
    expect(errored.messages.some(turnComplete)).toBe(false);

    const reset = await connect({ responseModalities: [Modality.TEXT] }, { 'x-mock-scenario': 'reset' });
    reset.session.sendClientContent({ turns: 'hello' });
    await expect.poll(reset.closed, { timeout: 15_000, interval: 20 }).toBeTruthy();
    expect(reset.closed()!.code).toBe(1006);
    expect(reset.messages.some((message) => message.serverContent?.modelTurn)).toBe(false);
  });

  it('answers a key the keys file does not list with a 401 to the upgrade', async () => {
    await mock.writeFixture('keys.yaml', 'keys:\n  - key: gemini-key\n');
    let failed: string | undefined;
    void client({}, 'wrong-key').live.connect({ model: MODEL, callbacks: { onmessage: () => undefined, onerror: (event) => (failed = String(event.message)) } });
    await expect.poll(() => failed, { timeout: 15_000, interval: 20 }).toContain('401');
    await mock.removeFixture('keys.yaml');
  });
});
