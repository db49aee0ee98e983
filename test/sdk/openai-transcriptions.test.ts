// Transcriptions and translations through the official openai SDK (`toFile` uploads): the mock's
// own speech comes back as its text, fixtures pin what a recording says, and anything else is
// heard as seeded sentences as long as the recording.
import { readFileSync } from 'node:fs';
import OpenAI, { BadRequestError, toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wavHeader } from '../../src/media/audio/wav.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: OpenAI;

const MEETING = readFileSync(new URL('../../fixtures/media/standup-meeting.mp3', import.meta.url));

beforeAll(async () => {
  server = await startTestServer({
    fixtureFiles: {
      'transcriptions.yaml': `
transcriptions:
  - name: by-hash
    match: { sha256: "${'0'.repeat(64)}" }
    reply: { text: "never" }
  - name: standup
    match: { file_name: "standup-*.mp3", model: "gpt-4o*" }
    reply: { text: "Morning all. The release ships Thursday.", language: fr }
  - name: prompted
    match: { prompt: "glossary" }
    reply: { text: "Kubernetes and Postgres." }
`,
    },
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': 'transcribe' } });
});
afterAll(() => server.close());

const TEXT = 'Hello there. This is the mock speaking, clearly and slowly.';

async function spoken(format: 'mp3' | 'wav' | 'flac' | 'opus', input = TEXT): Promise<Buffer> {
  const response = await client.audio.speech.create({ model: 'tts-1', voice: 'echo', input, response_format: format });
  return Buffer.from(await response.arrayBuffer());
}

/** A plain 24 kHz WAV of silence with no tags: nothing tells what it says. */
function silence(seconds: number): Buffer {
  const samples = Buffer.alloc(seconds * 24000 * 2);
  return Buffer.concat([wavHeader(samples.length), samples]);
}

describe('the round trip', () => {
  for (const format of ['wav', 'mp3', 'flac', 'opus'] as const) {
    it(`transcribes the mock's own ${format} speech to its exact text`, async () => {
      const file = await toFile(await spoken(format), `speech.${format === 'opus' ? 'ogg' : format}`);
      const transcription = await client.audio.transcriptions.create({ file, model: 'whisper-1' });
      expect(transcription.text).toBe(TEXT);
      expect(transcription.usage).toEqual({ type: 'duration', seconds: 4 });
    });
  }

  it('tells the kind by content when the name has no extension', async () => {
    const file = await toFile(await spoken('flac'), 'recording');
    expect((await client.audio.transcriptions.create({ file, model: 'gpt-4o-mini-transcribe' })).text).toBe(TEXT);
  });

  it('translates the mock speech to the text it carries', async () => {
    const file = await toFile(await spoken('mp3'), 'speech.mp3');
    expect((await client.audio.translations.create({ file, model: 'whisper-1' })).text).toBe(TEXT);
    const verbose = await client.audio.translations.create({ file: await toFile(await spoken('mp3'), 'speech.mp3'), model: 'whisper-1', response_format: 'verbose_json' });
    expect(verbose).toMatchObject({ task: 'translate', language: 'english', text: TEXT });
  });
});

describe('response formats', () => {
  const file = async () => toFile(await spoken('wav'), 'speech.wav');

  it('json with token usage for gpt-4o models', async () => {
    const transcription = await client.audio.transcriptions.create({ file: await file(), model: 'gpt-4o-transcribe', prompt: 'A greeting.' });
    expect(transcription.text).toBe(TEXT);
    const usage = transcription.usage as OpenAI.Audio.Transcription.Tokens;
    expect(usage.type).toBe('tokens');
    expect(usage.input_token_details).toEqual({ text_tokens: expect.any(Number), audio_tokens: 40 });
    expect(usage.input_tokens).toBe(40 + usage.input_token_details!.text_tokens!);
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
  });

  it('text, srt and vtt as text', async () => {
    expect(await client.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'text' })).toBe(`${TEXT}\n`);
    const srt = await client.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'srt' });
    expect(srt).toBe('1\n00:00:00,000 --> 00:00:00,800\nHello there.\n\n2\n00:00:00,800 --> 00:00:04,000\nThis is the mock speaking, clearly and slowly.\n');
    const vtt = await client.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'vtt' });
    expect(vtt).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:00.800\nHello there.\n\n00:00:00.800 --> 00:00:04.000\nThis is the mock speaking, clearly and slowly.\n');
  });

  it('verbose_json with segments and words whose times add up to the duration', async () => {
    const verbose = await client.audio.transcriptions.create({
      file: await file(),
      model: 'whisper-1',
      language: 'en',
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
    });
    expect(verbose).toMatchObject({ task: 'transcribe', language: 'english', duration: 4, text: TEXT, usage: { type: 'duration', seconds: 4 } });
    const words = verbose.words!;
    expect(words.map((w) => w.word)).toEqual(['Hello', 'there', 'This', 'is', 'the', 'mock', 'speaking', 'clearly', 'and', 'slowly']);
    // The mock's speech gives each word 0.4 s: its words land on its tones.
    expect(words[1]).toEqual({ word: 'there', start: 0.4, end: 0.8 });
    expect(words.at(-1)!.end).toBe(4);
    const segments = verbose.segments!;
    expect(segments.map((s) => [s.start, s.end])).toEqual([[0, 0.8], [0.8, 4]]);
    expect(segments.map((s) => s.text).join('')).toBe(` ${TEXT}`);
  });

  it('streams transcript.text.delta then transcript.text.done for gpt-4o transcribe models', async () => {
    const stream = await client.audio.transcriptions.create({ file: await file(), model: 'gpt-4o-mini-transcribe', stream: true });
    const events: OpenAI.Audio.TranscriptionStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const deltas = events.filter((e): e is OpenAI.Audio.TranscriptionTextDeltaEvent => e.type === 'transcript.text.delta');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.map((d) => d.delta).join('')).toBe(TEXT);
    expect(events.at(-1)).toMatchObject({ type: 'transcript.text.done', text: TEXT, usage: { type: 'tokens' } });
  });

  it('whisper-1 ignores stream and answers whole', async () => {
    const form = new FormData();
    form.append('file', new Blob([await spoken('wav')]), 'speech.wav');
    form.append('model', 'whisper-1');
    form.append('stream', 'true');
    const response = await fetch(`${server.url}/v1/audio/transcriptions`, { method: 'POST', body: form, headers: { authorization: 'Bearer sk-test' } });
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toMatchObject({ text: TEXT });
  });
});

describe('fixtures and unknown recordings', () => {
  it('answers a recorded meeting from its fixture, unchanged, in the fixture language', async () => {
    const file = await toFile(MEETING, 'standup-monday.mp3');
    const verbose = await client.audio.transcriptions.create({ file, model: 'gpt-4o-transcribe', response_format: 'verbose_json' });
    expect(verbose).toMatchObject({ text: 'Morning all. The release ships Thursday.', language: 'french' });
    expect(verbose.duration).toBeCloseTo(12.1, 0);
    // whisper-1 is not matched by the fixture's model glob.
    const other = await client.audio.transcriptions.create({ file: await toFile(MEETING, 'standup-monday.mp3'), model: 'whisper-1' });
    expect(other.text).not.toBe('Morning all. The release ships Thursday.');
  });

  it('matches on the prompt', async () => {
    const file = await toFile(silence(2), 'a.wav');
    expect((await client.audio.transcriptions.create({ file, model: 'whisper-1', prompt: 'Our glossary: k8s, pg.' })).text).toBe('Kubernetes and Postgres.');
  });

  it('hears seeded sentences that fit the duration of a recording it does not know, the same each time', async () => {
    const minute = silence(60);
    const first = await client.audio.transcriptions.create({ file: await toFile(minute, 'minute.wav'), model: 'whisper-1', response_format: 'verbose_json', timestamp_granularities: ['word'] });
    expect(first.duration).toBe(60);
    expect(first.words!.length).toBe(150);
    expect(first.words!.at(-1)!.end).toBe(60);
    const again = await client.audio.transcriptions.create({ file: await toFile(minute, 'minute.wav'), model: 'whisper-1' });
    expect(again.text).toBe(first.text);
  });

  it('keeps the audio size, kind and duration in the journal, not its bytes', async () => {
    await client.audio.transcriptions.create({ file: await toFile(silence(3), 'three.wav'), model: 'whisper-1' }, { headers: { 'x-mock-session': 'journal' } });
    await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'one two', response_format: 'flac' }, { headers: { 'x-mock-session': 'journal' } });
    const { requests } = (await (await fetch(`${server.url}/__admin/requests?session=journal`)).json()) as { requests: Array<Record<string, any>> };
    expect(requests[0]!.body).toMatchObject({ model: 'whisper-1', file: { name: 'three.wav', type: 'wav', size: 44 + 3 * 48000, duration_seconds: 3 } });
    expect(requests[0]!.source).toBe('generated');
    expect(requests[1]!.response.body).toEqual({ type: 'audio/flac', size: expect.any(Number), format: 'flac', duration_seconds: 0.8 });
  });
});

describe('transcription requests the vendor refuses', () => {
  const refused = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a 400'), (error: unknown) => error as BadRequestError);

  it('names the kinds it takes for a file of no known kind', async () => {
    const error = await refused(client.audio.transcriptions.create({ file: await toFile(Buffer.from('just some text here'), 'notes.txt'), model: 'whisper-1' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.param).toBe('file');
    expect(error.message).toContain("'flac', 'mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'ogg', 'wav', 'webm'");
    const empty = await refused(client.audio.transcriptions.create({ file: await toFile(Buffer.alloc(0), 'empty.wav'), model: 'whisper-1' }));
    expect(empty.message).toContain('empty');
  });

  it('refuses a speech model, an unknown language, a translation by a gpt-4o model, a bad response_format', async () => {
    const file = () => toFile(silence(1), 'a.wav');
    expect((await refused(client.audio.transcriptions.create({ file: await file(), model: 'tts-1' }))).param).toBe('model');
    expect((await refused(client.audio.transcriptions.create({ file: await file(), model: 'whisper-1', language: 'xx' }))).param).toBe('language');
    expect((await refused(client.audio.translations.create({ file: await file(), model: 'gpt-4o-transcribe' }))).param).toBe('model');
    expect((await refused(client.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'docx' as 'json' }))).param).toBe('response_format');
  });
});
