// The mock's speech as samples: one short tone per word, 24 kHz mono, 16-bit. Each word's pitch
// comes from the word, the voice and the seed, so the same request always sounds the same and
// different words sound different; a gap after each tone lets a listener count the words.
import { seededRandom } from '../../conversation/random.js';

export const SAMPLE_RATE = 24_000;
/** How long one word lasts at speed 1, as a talker of about 150 words a minute takes. */
export const SECONDS_PER_WORD = 0.4;
/** The speeds a speech request may ask for, as the vendor bounds `speed`. */
export const SLOWEST_SPEED = 0.25;
export const FASTEST_SPEED = 4;
/** The longest text the mock speaks: the vendor's bound on a speech's `input` (MAX_SPEECH_INPUT, styles/audio). */
export const MAX_SPOKEN_CHARACTERS = 4096;
/** The most words the mock ever speaks: that input's one-letter words with a space after each. */
export const MOST_SPOKEN_WORDS = MAX_SPOKEN_CHARACTERS / 2;
const TONE_SHARE = 0.8;
const RAMP_SAMPLES = 240; // 10 ms fades, so tones start and stop without a click
const AMPLITUDE = 0.3 * 32767;

export interface Speech {
  /** The words spoken (whitespace-separated), at least one. */
  readonly words: readonly string[];
  /** Each word's frequency in Hz. */
  readonly pitches: Float64Array;
  readonly samplesPerWord: number;
  readonly totalSamples: number;
}

export function spokenWords(text: string): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  return words.length > 0 ? words : [''];
}

export function planSpeech(text: string, voice: string, speed: number, seed: number | string): Speech {
  const words = spokenWords(text);
  // The voice sets the register (a low or a high speaker); each word moves around it.
  const base = seededRandom('voice', seed, voice).int(110, 260);
  const pitches = new Float64Array(words.length);
  words.forEach((word, index) => {
    pitches[index] = base * 2 ** (seededRandom('word', seed, voice, word).int(0, 12) / 12);
  });
  const samplesPerWord = Math.round((SAMPLE_RATE * SECONDS_PER_WORD) / speed);
  return { words, pitches, samplesPerWord, totalSamples: samplesPerWord * words.length };
}

/** The samples from `start` up to `end`: any slice can be made on its own, so encoding can go a slice at a time. */
export function renderSamples(speech: Speech, start: number, end: number): Int16Array {
  const out = new Int16Array(Math.max(0, Math.min(end, speech.totalSamples) - start));
  const toneLength = Math.round(speech.samplesPerWord * TONE_SHARE);
  const ramp = Math.min(RAMP_SAMPLES, toneLength >> 1);
  for (let i = 0; i < out.length; i++) {
    const at = start + i;
    const word = Math.floor(at / speech.samplesPerWord);
    const position = at - word * speech.samplesPerWord;
    if (position >= toneLength) continue;
    const envelope = Math.min(1, position / ramp, (toneLength - position) / ramp);
    const phase = (2 * Math.PI * speech.pitches[word]! * position) / SAMPLE_RATE;
    // A second harmonic makes it less of a test beep and more of a hum.
    out[i] = Math.round(AMPLITUDE * envelope * (0.8 * Math.sin(phase) + 0.2 * Math.sin(2 * phase)));
  }
  return out;
}
