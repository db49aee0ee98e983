// The pure parts of audio: tones, the kind of an upload, and the transcript's timeline and text
// formats.
import { describe, expect, it } from 'vitest';
import { audioKind } from '../../src/media/audio/hear.js';
import { encodeSpeech } from '../../src/media/audio/speech-file.js';
import { wavHeader } from '../../src/media/audio/wav.js';
import { planSpeech, renderSamples } from '../../src/media/audio/tones.js';
import { srt, timeline, vtt } from '../../src/styles/audio/transcript.js';

describe('speech tones', () => {
  it('gives each word 0.4 s over speed, a tone then a gap, the same for the same text, voice and seed', () => {
    const speech = planSpeech('alpha beta  gamma', 'alloy', 2, 7);
    expect(speech.words).toEqual(['alpha', 'beta', 'gamma']);
    expect(speech.samplesPerWord).toBe(4800);
    const samples = renderSamples(speech, 0, speech.totalSamples);
    expect(samples.length).toBe(3 * 4800);
    expect(samples.subarray(100, 2000).some((s) => Math.abs(s) > 1000)).toBe(true);
    expect(samples.subarray(4560, 4800).every((s) => s === 0)).toBe(true); // the gap closing the first word
    expect(renderSamples(planSpeech('alpha beta  gamma', 'alloy', 2, 7), 0, speech.totalSamples)).toEqual(samples);
    expect(planSpeech('alpha', 'onyx', 1, 7).pitches[0]).not.toBe(planSpeech('alpha', 'alloy', 1, 7).pitches[0]);
  });

  it('renders any slice on its own as the whole would', () => {
    const speech = planSpeech('one two three four', 'echo', 1, 1);
    const whole = renderSamples(speech, 0, speech.totalSamples);
    const joined = new Int16Array(speech.totalSamples);
    for (let at = 0; at < speech.totalSamples; at += 7001) joined.set(renderSamples(speech, at, at + 7001), at);
    expect(joined).toEqual(whole);
  });
});

describe('wav and pcm speech files', () => {
  const request = { text: 'one two three four five', voice: 'alloy', speed: 1.5, seed: 3 };
  const speech = planSpeech(request.text, request.voice, request.speed, request.seed);
  const rendered = renderSamples(speech, 0, speech.totalSamples);
  const samples = Buffer.alloc(rendered.length * 2);
  rendered.forEach((sample, i) => samples.writeInt16LE(sample, i * 2));

  it('writes the samples little-endian after the header, slice after slice, as one file of its announced size', async () => {
    const wav = await encodeSpeech({ ...request, format: 'wav' }, async () => {});
    expect(wav.data.equals(Buffer.concat([wavHeader(samples.length, request.text), samples]))).toBe(true);
    expect(wav.data.readUInt32LE(4)).toBe(wav.data.length - 8);
    const pcm = await encodeSpeech({ ...request, format: 'pcm' }, async () => {});
    expect(pcm.data.equals(samples)).toBe(true);
  });
});

describe('the kind of an upload', () => {
  const bytes = (text: string) => Buffer.concat([Buffer.from(text, 'latin1'), Buffer.alloc(16)]);
  it('goes by the extension, else by the first bytes', () => {
    expect(audioKind('Call.M4A', bytes('anything'))).toBe('m4a');
    expect(audioKind('blob', bytes('RIFF\0\0\0\0WAVE'))).toBe('wav');
    expect(audioKind('blob', bytes('fLaC'))).toBe('flac');
    expect(audioKind('blob', bytes('OggS'))).toBe('ogg');
    expect(audioKind('blob', bytes('ID3'))).toBe('mp3');
    expect(audioKind('blob', bytes('\0\0\0\x20ftypM4A '))).toBe('m4a');
    expect(audioKind('blob', bytes('\0\0\0\x20ftypisom'))).toBe('mp4');
    expect(audioKind('blob', bytes('\x1a\x45\xdf\xa3'))).toBe('webm');
    expect(audioKind('notes.txt', bytes('hello'))).toBeUndefined();
  });
});

describe('transcript formats', () => {
  it('shares the duration equally among words and cuts segments at sentence ends', () => {
    const line = timeline('First one. Then "the second!" and more', 7);
    expect(line.words.map((w) => w.word)).toEqual(['First', 'one', 'Then', 'the', 'second', 'and', 'more']);
    expect(line.words.at(-1)!.end).toBe(7);
    expect(line.segments.map((s) => [s.start, s.end, s.text])).toEqual([
      [0, 2, ' First one.'],
      [2, 5, ' Then "the second!"'],
      [5, 7, ' and more'],
    ]);
  });

  it('writes hours in srt and vtt clocks', () => {
    const line = timeline('Long.', 3725.5);
    expect(srt(line)).toBe('1\n00:00:00,000 --> 01:02:05,500\nLong.\n');
    expect(vtt(line)).toBe('WEBVTT\n\n00:00:00.000 --> 01:02:05.500\nLong.\n');
  });
});
