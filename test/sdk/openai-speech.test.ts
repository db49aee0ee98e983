// Speech through the official openai SDK, judged by ffprobe: the container and codec asked for,
// 24 kHz mono (Opus decodes at 48 kHz, as every Ogg Opus stream does), 0.4 s a word over speed.
import OpenAI, { BadRequestError, NotFoundError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BinaryPieces } from '../../src/conversation/plan.js';
import { hasFfprobe, probe } from '../helpers/audio.js';
import { answer, plainMock } from '../helpers/mock.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer();
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': 'speech' } });
});
afterAll(() => server.close());

const FIVE_WORDS = 'The quick brown fox jumps';

async function speech(params: Partial<OpenAI.Audio.SpeechCreateParams> = {}): Promise<{ type: string; data: Buffer }> {
  const response = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: FIVE_WORDS, ...params });
  return { type: response.headers.get('content-type')!, data: Buffer.from(await response.arrayBuffer()) };
}

const FORMATS = [
  { format: 'mp3', type: 'audio/mpeg', container: 'mp3', codec: 'mp3', rate: 24000 },
  { format: 'wav', type: 'audio/wav', container: 'wav', codec: 'pcm_s16le', rate: 24000 },
  { format: 'flac', type: 'audio/flac', container: 'flac', codec: 'flac', rate: 24000 },
  { format: 'opus', type: 'audio/opus', container: 'ogg', codec: 'opus', rate: 48000 },
] as const;

describe('audio.speech.create', () => {
  for (const expected of FORMATS) {
    it.skipIf(!hasFfprobe)(`answers ${expected.format} that ffprobe decodes, 0.4 s a word`, async () => {
      const { type, data } = await speech({ response_format: expected.format });
      expect(type).toBe(expected.type);
      const probed = probe(data, expected.format === 'opus' ? 'ogg' : expected.format);
      expect(probed).toMatchObject({ container: expected.container, codec: expected.codec, sampleRate: expected.rate, channels: 1 });
      expect(probed.seconds).toBeGreaterThan(2.0 * 0.8);
      expect(probed.seconds).toBeLessThan(2.0 * 1.2);
    });
  }

  it.skipIf(!hasFfprobe)('divides the time by speed', async () => {
    const fast = probe((await speech({ response_format: 'mp3', speed: 2 })).data, 'mp3');
    expect(fast.seconds).toBeGreaterThan(1.0 * 0.8);
    expect(fast.seconds).toBeLessThan(1.0 * 1.2);
    const slow = probe((await speech({ response_format: 'flac', speed: 0.5 })).data, 'flac');
    expect(slow.seconds).toBeCloseTo(4.0, 1);
  });

  it('answers pcm as raw 16-bit samples at 24 kHz: two bytes a sample', async () => {
    const { type, data } = await speech({ response_format: 'pcm' });
    expect(type).toBe('audio/pcm');
    expect(data.length).toBe(5 * 0.4 * 24000 * 2);
    expect(data.subarray(0, 4).toString('latin1')).not.toBe('RIFF');
  });

  it('defaults to mp3 and is the same for the same text, voice and seed, different for another voice', async () => {
    const first = await speech();
    expect(first.type).toBe('audio/mpeg');
    expect(first.data.subarray(0, 3).toString('latin1')).toBe('ID3');
    expect((await speech()).data.equals(first.data)).toBe(true);
    const wav = (voice: string) => speech({ response_format: 'wav', voice }).then((answer) => answer.data);
    expect((await wav('alloy')).equals(await wav('nova'))).toBe(false);
  });

  it('carries the text in the WAV LIST/INFO comment', async () => {
    const { data } = await speech({ response_format: 'wav' });
    expect(data.includes(Buffer.from(`ICMT`))).toBe(true);
    expect(data.includes(Buffer.from(FIVE_WORDS))).toBe(true);
  });

  it('streams speech.audio.delta events and speech.audio.done with usage for gpt-4o-mini-tts', async () => {
    const response = await client.audio.speech.create({
      model: 'gpt-4o-mini-tts',
      voice: 'coral',
      input: FIVE_WORDS,
      instructions: 'Speak cheerfully.',
      response_format: 'wav',
      stream_format: 'sse',
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; audio?: string; usage?: Record<string, number> });
    const deltas = events.filter((event) => event.type === 'speech.audio.delta');
    expect(deltas.length).toBeGreaterThan(1);
    const audio = Buffer.concat(deltas.map((event) => Buffer.from(event.audio!, 'base64')));
    expect(audio.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(audio.length).toBe((await speech({ model: 'gpt-4o-mini-tts', voice: 'coral', response_format: 'wav' })).data.length);
    const done = events.at(-1)!;
    expect(done.type).toBe('speech.audio.done');
    expect(done.usage!.total_tokens).toBe(done.usage!.input_tokens! + done.usage!.output_tokens!);
    expect(done.usage!.input_tokens).toBeGreaterThan(5);
  });
});

describe('speech requests the vendor refuses', () => {
  const refused = async (params: Record<string, unknown>) => {
    const error = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'hi', ...params } as OpenAI.Audio.SpeechCreateParams).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    return error as BadRequestError;
  };

  it('names the supported formats for aac, which the mock does not make', async () => {
    const error = await refused({ response_format: 'aac' });
    expect(error.param).toBe('response_format');
    expect(error.message).toContain('mp3, opus, flac, wav, pcm');
  });

  it('refuses a voice outside the SDK list, an empty or too long input, a speed out of range', async () => {
    expect((await refused({ voice: 'robot' })).param).toBe('voice');
    expect((await refused({ input: '' })).param).toBe('input');
    expect((await refused({ input: 'a'.repeat(4097) })).param).toBe('input');
    expect((await refused({ speed: 5 })).param).toBe('speed');
  });

  it('takes instructions and sse only with gpt-4o-mini-tts', async () => {
    expect((await refused({ instructions: 'Whisper.' })).param).toBe('instructions');
    expect((await refused({ stream_format: 'sse' })).param).toBe('stream_format');
  });

  it('answers a chat model with 400 naming the speech models, an unknown one with 404', async () => {
    const error = await refused({ model: 'gpt-4o-mini' });
    expect(error.param).toBe('model');
    expect(error.message).toContain('tts-1');
    await expect(client.audio.speech.create({ model: 'tts-9', voice: 'alloy', input: 'hi' })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('a speech too large to hold', () => {
  // The vendor's 4,096 characters of one-letter words at its slowest speed: 55 minutes, 157 MB of wav.
  const longest = { model: 'tts-1', voice: 'alloy', input: 'a '.repeat(2048), speed: 0.25, response_format: 'wav' } as const;
  const samples = 2048 * Math.round((24000 * 0.4) / 0.25);

  it('is sent as it is made: its head and first samples are read, and the client may stop there', async () => {
    const response = await client.audio.speech.create(longest);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const size = Number(response.headers.get('content-length'));
    const reader = response.body!.getReader();
    const read: Uint8Array[] = [];
    let bytes = 0;
    while (bytes < 256 * 1024) {
      const { value, done } = await reader.read();
      if (done) break;
      read.push(value);
      bytes += value.length;
    }
    await reader.cancel();
    const head = Buffer.concat(read);
    expect(head.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(head.readUInt32LE(4)).toBe(size - 8);
    const data = head.indexOf('data', 12, 'latin1');
    expect(head.readUInt32LE(data + 4)).toBe(samples * 2);
    expect(size).toBe(data + 8 + samples * 2);
    // The first word's tone, not silence.
    expect(head.subarray(data + 8 + 48_000, data + 8 + 96_000).some((byte) => byte !== 0)).toBe(true);
  });

  it('is answered with pieces made as they are read, not one buffer', async () => {
    const outcome = await answer(plainMock(), 'POST /v1/audio/speech', { body: longest });
    if (!('plan' in outcome) || outcome.plan.kind !== 'binary') throw new Error('expected a binary answer');
    const { data } = outcome.plan;
    expect(data instanceof Uint8Array).toBe(false);
    expect((data as BinaryPieces).size).toBeGreaterThan(samples * 2);
  });
});
