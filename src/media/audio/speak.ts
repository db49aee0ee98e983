// Speech made a slice at a time: each slice is rendered and encoded, then the event loop gets a
// turn, so a long input does not hold up other clients. Finished files are remembered by what
// decides their bytes, within a byte budget.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { RecentBytes } from '../recent-bytes.js';
import { SPEECH_FORMATS } from './formats.js';
import { planSpeech, renderSamples, SAMPLE_RATE } from './tones.js';

export interface SpeechRequest {
  text: string;
  voice: string;
  format: string;
  speed: number;
  seed: number | string;
}

export interface SpokenAudio {
  readonly data: Buffer;
  readonly contentType: string;
  readonly seconds: number;
  readonly words: number;
}

/** Half a second of audio: about 2 ms of CPU for the slowest codec (MP3), 6 ms at worst. */
const SLICE_SAMPLES = SAMPLE_RATE / 2;

const recent = new RecentBytes<SpokenAudio>(32, 32 * 1024 * 1024);

/**
 * Makes the file, calling `between` after each slice: in the server it yields to the event loop;
 * the bench measures the work done between two calls.
 */
export async function encodeSpeech({ text, voice, format, speed, seed }: SpeechRequest, between: () => Promise<unknown>): Promise<SpokenAudio> {
  const speech = planSpeech(text, voice, speed, seed);
  const { contentType, open } = SPEECH_FORMATS[format]!;
  const encoder = await open({ text, totalSamples: speech.totalSamples });
  for (let start = 0; start < speech.totalSamples; start += SLICE_SAMPLES) {
    encoder.encode(renderSamples(speech, start, start + SLICE_SAMPLES));
    await between();
  }
  return { data: encoder.finish(), contentType, seconds: speech.totalSamples / SAMPLE_RATE, words: speech.words.length };
}

export function speak(request: SpeechRequest): Promise<SpokenAudio> {
  const key = JSON.stringify([request.text, request.voice, request.format, request.speed, String(request.seed)]);
  return recent.remembered(key, () => encodeSpeech(request, nextTurn));
}
