// A transcription's length comes from the bytes the upload holds: a header that claims hours, or
// a tag that carries a book, changes nothing a tiny file could not say. A speech's length is
// bounded by its input, as the vendor bounds it.
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/exchange/exchange.js';
import { MAX_SPOKEN_CHARACTERS, MOST_SPOKEN_WORDS, planSpeech, SAMPLE_RATE, SLOWEST_SPEED } from '../../src/media/audio/tones.js';
import { wavHeader } from '../../src/media/audio/wav.js';
import { answer, plainMock } from '../helpers/mock.js';

const mock = plainMock();

function chunk(id: string, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'latin1');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
}

/** A RIFF WAVE of 8-bit mono PCM at `rate`, its chunks after the format chunk. */
function wave(rate: number, chunks: Buffer[]): Buffer {
  const format = Buffer.alloc(16);
  format.writeUInt16LE(1, 0);
  format.writeUInt16LE(1, 2);
  format.writeUInt32LE(rate, 4);
  format.writeUInt32LE(rate, 8);
  format.writeUInt16LE(1, 12);
  format.writeUInt16LE(8, 14);
  const body = Buffer.concat([Buffer.from('WAVE'), chunk('fmt ', format), ...chunks]);
  return Buffer.concat([Buffer.from('RIFF'), Buffer.from(Uint32Array.of(body.length).buffer), body]);
}

/** A 58-byte WAV at 1 Hz: two samples, and a `fact` chunk claiming `claimed`. */
function lyingWav(claimed: number): Buffer {
  return wave(1, [chunk('fact', Buffer.from(Uint32Array.of(claimed).buffer)), chunk('data', Buffer.alloc(2))]);
}

/** A 42-byte FLAC: a STREAMINFO claiming `seconds` at 8 kHz, and no frames. */
function lyingFlac(seconds: number): Buffer {
  const info = Buffer.alloc(34);
  const rate = 8000;
  const total = rate * seconds;
  info.writeUInt16BE(4096, 0);
  info.writeUInt16BE(4096, 2);
  info[10] = rate >> 12;
  info[11] = (rate >> 4) & 0xff;
  info[12] = ((rate & 0xf) << 4) | (15 >> 4); // mono, 16-bit
  info[13] = ((15 & 0xf) << 4) | Math.floor(total / 2 ** 32);
  info.writeUInt32BE(total >>> 0, 14);
  return Buffer.concat([Buffer.from('fLaC'), Buffer.from([0x80, 0, 0, 34]), info]);
}

async function transcribe(filename: string, data: Buffer): Promise<{ text: string; seconds: number }> {
  const outcome: Outcome = await answer(mock, 'POST /v1/audio/transcriptions', {
    multipart: true,
    uploads: new Map([['file', [{ filename, data }]]]),
    body: { model: 'whisper-1', response_format: 'text' },
  });
  if (!('plan' in outcome) || outcome.plan.kind !== 'binary') throw new Error('expected a text answer');
  const { file } = (outcome.notes as unknown as { uploads: { file: { duration_seconds: number } } }).uploads;
  return { text: Buffer.from(outcome.plan.data as Uint8Array).toString(), seconds: file.duration_seconds };
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('a transcription as long as the upload can play', () => {
  it("takes a WAV's length from its samples, not its fact chunk's claim", async () => {
    const heard = await transcribe('claim.wav', lyingWav(40_000));
    expect(heard.seconds).toBeLessThanOrEqual(1);
    expect(words(heard.text)).toBeLessThanOrEqual(3);
  });

  it("takes a FLAC's length from its size, not its STREAMINFO's sample count", async () => {
    const heard = await transcribe('claim.flac', lyingFlac(40_000));
    expect(heard.seconds).toBeLessThanOrEqual(1);
    expect(words(heard.text)).toBeLessThanOrEqual(3);
  });

  it("cuts a tag that says the mock spoke it to what a second of the mock's fastest speech says", async () => {
    const samples = Buffer.alloc(48_000);
    const book = Array.from({ length: 100_000 }, (_, i) => `w${i}`).join(' ');
    const heard = await transcribe('book.wav', Buffer.concat([wavHeader(samples.length, book), samples]));
    expect(heard.seconds).toBe(1);
    expect(heard.text.trim()).toBe('w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10');
  });
});

describe('seeded sentences for a long recording', () => {
  it("say no more than the mock's longest speech, however long the recording really is", async () => {
    // 875 s of 8-bit mono at 8 kHz: 2,188 words at 0.4 s a word.
    const heard = await transcribe('long.wav', wave(8000, [chunk('data', Buffer.alloc(875 * 8000, 0x80))]));
    expect(heard.seconds).toBe(875);
    expect(words(heard.text)).toBe(MOST_SPOKEN_WORDS);
  });
});

describe('a speech no longer than the vendor\'s input at the slowest speed', () => {
  it('lasts under an hour for the most words the input holds, and refuses a longer input naming it', async () => {
    const mostWords = 'a '.repeat(MAX_SPOKEN_CHARACTERS / 2);
    expect(planSpeech(mostWords, 'alloy', SLOWEST_SPEED, 0).totalSamples / SAMPLE_RATE).toBe(3276.8);
    const outcome = await answer(mock, 'POST /v1/audio/speech', { body: { model: 'tts-1', voice: 'alloy', input: `${mostWords}a`, speed: SLOWEST_SPEED } });
    expect('error' in outcome && outcome.error.options.param).toBe('input');
    expect('error' in outcome && outcome.error.message).toContain('4096');
  });
});
