// One speech file made a slice at a time: each slice is rendered and encoded, then `between` is
// called (the audio worker yields there, so speeches asked together go on side by side).
import { SPEECH_FORMATS } from './formats.js';
import { planSpeech, renderSamples, SAMPLE_RATE, type Speech } from './tones.js';

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

/** A speech's samples, a slice at a time. */
export function* speechSlices(speech: Speech): Generator<Int16Array> {
  for (let start = 0; start < speech.totalSamples; start += SLICE_SAMPLES) yield renderSamples(speech, start, start + SLICE_SAMPLES);
}

export async function encodeSpeech({ text, voice, format, speed, seed }: SpeechRequest, between: () => Promise<unknown>): Promise<SpokenAudio> {
  const speech = planSpeech(text, voice, speed, seed);
  const { contentType, open } = SPEECH_FORMATS[format]!;
  const encoder = await open({ text, totalSamples: speech.totalSamples });
  for (const samples of speechSlices(speech)) {
    encoder.encode(samples);
    await between();
  }
  return { data: encoder.finish(), contentType, seconds: speech.totalSamples / SAMPLE_RATE, words: speech.words.length };
}
