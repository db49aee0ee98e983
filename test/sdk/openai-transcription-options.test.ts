// Transcription options one model family has (SPEC 20): logprobs of the gpt-4o transcribe models
// (`include: ["logprobs"]`) and gpt-4o-transcribe-diarize's speakers (`diarized_json`), whole and
// streamed through the openai SDK, and the 400s the vendor answers them with on other models.
import OpenAI, { BadRequestError, toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer();
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

const TEXT = 'Hello there. This is the mock speaking. Thank you.';

async function recording() {
  const speech = await client.audio.speech.create({ model: 'tts-1', voice: 'echo', input: TEXT, response_format: 'wav' });
  return toFile(Buffer.from(await speech.arrayBuffer()), 'call.wav');
}

async function events(stream: AsyncIterable<OpenAI.Audio.TranscriptionStreamEvent>) {
  const all: OpenAI.Audio.TranscriptionStreamEvent[] = [];
  for await (const event of stream) all.push(event);
  return all;
}

describe('logprobs', () => {
  it('gives one logprob per token of the text, the same on the next run', async () => {
    const transcription = await client.audio.transcriptions.create({ file: await recording(), model: 'gpt-4o-transcribe', include: ['logprobs'] });
    expect(transcription.text).toBe(TEXT);
    const logprobs = transcription.logprobs!;
    expect(logprobs.map((l) => l.token).join('')).toBe(TEXT);
    for (const { token, logprob, bytes } of logprobs) {
      expect(logprob).toBeLessThanOrEqual(0);
      expect(Buffer.from(bytes!).toString('utf8')).toBe(token);
    }
    const again = await client.audio.transcriptions.create({ file: await recording(), model: 'gpt-4o-transcribe', include: ['logprobs'] });
    expect(again.logprobs).toEqual(logprobs);
  });

  it('streams each delta with its tokens and the done event with them all, as the whole answer has them', async () => {
    const whole = await client.audio.transcriptions.create({ file: await recording(), model: 'gpt-4o-mini-transcribe', include: ['logprobs'] });
    const stream = await events(await client.audio.transcriptions.create({ file: await recording(), model: 'gpt-4o-mini-transcribe', include: ['logprobs'], stream: true }));
    const deltas = stream.filter((e): e is OpenAI.Audio.TranscriptionTextDeltaEvent => e.type === 'transcript.text.delta');
    expect(deltas.flatMap((d) => d.logprobs!)).toEqual(whole.logprobs);
    expect(stream.at(-1)).toMatchObject({ type: 'transcript.text.done', text: TEXT, logprobs: whole.logprobs });
  });

  it('gives none when not asked, nor for whisper-1', async () => {
    expect((await client.audio.transcriptions.create({ file: await recording(), model: 'gpt-4o-transcribe' })).logprobs).toBeUndefined();
    expect((await client.audio.transcriptions.create({ file: await recording(), model: 'whisper-1', include: ['logprobs'] })).logprobs).toBeUndefined();
  });
});

describe('diarized_json', () => {
  it('answers segments with speakers and times over the recording, whose texts make the transcript', async () => {
    const diarized = (await client.audio.transcriptions.create({
      file: await recording(),
      model: 'gpt-4o-transcribe-diarize',
      response_format: 'diarized_json',
      chunking_strategy: 'auto',
    })) as unknown as OpenAI.Audio.TranscriptionDiarized;
    expect(diarized).toMatchObject({ task: 'transcribe', text: TEXT, usage: { type: 'tokens' } });
    expect(diarized.segments.map((s) => [s.speaker, s.text])).toEqual([
      ['A', 'Hello there.'],
      ['B', 'This is the mock speaking.'],
      ['A', 'Thank you.'],
    ]);
    expect(diarized.segments[0]).toMatchObject({ type: 'transcript.text.segment', id: expect.any(String), start: 0 });
    expect(diarized.segments.at(-1)!.end).toBe(diarized.duration);
  });

  it('labels the speakers with known_speaker_names', async () => {
    const diarized = (await client.audio.transcriptions.create({
      file: await recording(),
      model: 'gpt-4o-transcribe-diarize',
      response_format: 'diarized_json',
      known_speaker_names: ['agent', 'customer'],
      known_speaker_references: ['data:audio/wav;base64,AAAA', 'data:audio/wav;base64,AAAA'],
    })) as unknown as OpenAI.Audio.TranscriptionDiarized;
    expect(diarized.segments.map((s) => s.speaker)).toEqual(['agent', 'customer', 'agent']);
  });

  it('streams deltas naming their segment, each segment after its deltas, then done', async () => {
    const stream = await events(await client.audio.transcriptions.create({ file: await recording(), model: 'gpt-4o-transcribe-diarize', response_format: 'diarized_json', stream: true }));
    const segments = stream.filter((e): e is OpenAI.Audio.TranscriptionTextSegmentEvent => e.type === 'transcript.text.segment');
    expect(segments.map((s) => s.speaker)).toEqual(['A', 'B', 'A']);
    const deltas = stream.filter((e): e is OpenAI.Audio.TranscriptionTextDeltaEvent => e.type === 'transcript.text.delta');
    expect(deltas.map((d) => d.delta).join('')).toBe(TEXT);
    for (const segment of segments) {
      const own = deltas.filter((d) => d.segment_id === segment.id);
      expect(own.map((d) => d.delta).join('').trim()).toBe(segment.text);
      expect(stream.indexOf(own.at(-1)!)).toBeLessThan(stream.indexOf(segment));
    }
    expect(stream.at(-1)).toMatchObject({ type: 'transcript.text.done', text: TEXT });
  });

  it('answers json and text too', async () => {
    expect((await client.audio.transcriptions.create({ file: await recording(), model: 'gpt-4o-transcribe-diarize' })).text).toBe(TEXT);
    expect(await client.audio.transcriptions.create({ file: await recording(), model: 'gpt-4o-transcribe-diarize', response_format: 'text' })).toBe(`${TEXT}\n`);
  });
});

describe('what the vendor refuses', () => {
  const refused = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a 400'), (error: unknown) => error as BadRequestError);

  it('diarized_json on a model that does not label speakers, naming response_format', async () => {
    for (const model of ['gpt-4o-transcribe', 'whisper-1']) {
      const error = await refused(client.audio.transcriptions.create({ file: await recording(), model, response_format: 'diarized_json' }));
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error.param).toBe('response_format');
      expect(error.message).toContain(`'diarized_json' is not compatible with model '${model}'`);
    }
  });

  it('logprobs, srt or verbose_json from the diarizing model', async () => {
    const logprobs = await refused(client.audio.transcriptions.create({ file: await recording(), model: 'gpt-4o-transcribe-diarize', include: ['logprobs'] }));
    expect(logprobs.param).toBe('include');
    const srt = await refused(client.audio.transcriptions.create({ file: await recording(), model: 'gpt-4o-transcribe-diarize', response_format: 'srt' }));
    expect(srt.param).toBe('response_format');
    expect(srt.message).toContain("Use 'json', 'text', 'diarized_json' instead.");
  });
});
