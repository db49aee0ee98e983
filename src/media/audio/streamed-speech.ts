// A speech too large to hold (a wav or pcm file past what the speech cache keeps: at speed 0.25
// the vendor's 4,096 characters last 55 minutes, 157 MB of wav) is sent as it is made: its head,
// then each slice's samples as the client reads the one before, so the process holds a slice of it
// at a time. Only the formats whose size is known before the first sample are sent so: the
// answer's Content-Length is that size. A codec's file stays made whole on the audio worker.
import { endianness } from 'node:os';
import type { BinaryPieces } from '../../conversation/plan.js';
import { Slice } from '../../state/event-loop.js';
import { sizedHead, writeSamples } from './plain.js';
import { SPEECH_FORMATS } from './formats.js';
import { SPEECH_CACHE_BYTES } from './speak.js';
import { speechSlices, type SpeechRequest } from './speech-file.js';
import { planSpeech, SAMPLE_RATE, type Speech } from './tones.js';

export interface StreamedSpeech {
  readonly contentType: string;
  readonly seconds: number;
  readonly file: BinaryPieces;
}

/** The samples as 16-bit little-endian bytes: on a little-endian machine, their own memory. */
function samplesLE(samples: Int16Array): Uint8Array {
  if (endianness() === 'LE') return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
  const piece = Buffer.allocUnsafe(samples.length * 2);
  writeSamples(samples, piece, 0);
  return piece;
}

async function* pieces(head: Buffer, speech: Speech): AsyncGenerator<Uint8Array> {
  yield head;
  // A socket that takes every piece at once would have the whole file made in one turn.
  const slice = new Slice();
  for (const samples of speechSlices(speech)) {
    if (slice.over) await slice.next();
    yield samplesLE(samples);
  }
}

/** The speech as pieces made as they are read, when it is a sized format too large to hold; else undefined. */
export function streamedSpeech({ text, voice, format, speed, seed }: SpeechRequest): StreamedSpeech | undefined {
  // Its size, from the words alone, before anything is made.
  const speech = planSpeech(text, voice, speed, seed);
  const head = sizedHead(format, { text, totalSamples: speech.totalSamples });
  const size = head && head.length + speech.totalSamples * 2;
  if (!head || !size || size <= SPEECH_CACHE_BYTES) return undefined;
  return { contentType: SPEECH_FORMATS[format]!.contentType, seconds: speech.totalSamples / SAMPLE_RATE, file: { size, pieces: pieces(head, speech) } };
}
