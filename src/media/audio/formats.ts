// The speech formats: content type and encoder of each. `aac` is the one the vendor offers that
// the mock refuses: no maintained AAC encoder installs as JavaScript or WebAssembly from npm.
import type { OpenEncoder } from './encoder.js';
import { flacEncoder } from './flac.js';
import { mp3Encoder } from './mp3.js';
import { opusEncoder } from './opus.js';
import { pcmEncoder, wavEncoder } from './plain.js';

export interface SpeechFormat {
  contentType: string;
  open: OpenEncoder;
}

export const SPEECH_FORMATS: Readonly<Record<string, SpeechFormat>> = {
  mp3: { contentType: 'audio/mpeg', open: mp3Encoder },
  opus: { contentType: 'audio/opus', open: opusEncoder },
  flac: { contentType: 'audio/flac', open: flacEncoder },
  wav: { contentType: 'audio/wav', open: wavEncoder },
  pcm: { contentType: 'audio/pcm', open: pcmEncoder },
};

/** Formats the vendor names that the mock does not make (a 400 naming the ones it does). */
export const REFUSED_SPEECH_FORMATS = ['aac'] as const;
