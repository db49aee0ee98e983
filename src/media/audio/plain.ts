// The two formats that need no codec: raw 16-bit little-endian samples, and WAV around them.
// Their size is known before the first sample, so each file is written into one buffer of that
// size (collected in slices and joined, a 55-minute speech, 157 MB, was held twice at its end),
// or, too large to hold, sent as it is made (streamed-speech.ts).
import type { SampleEncoder, SpeechTags } from './encoder.js';
import { wavHeader } from './wav.js';

/** The bytes before the samples, for a format whose size is known before its first sample; none for a codec's. */
export function sizedHead(format: string, { text, totalSamples }: SpeechTags): Buffer | undefined {
  if (format === 'pcm') return Buffer.alloc(0);
  if (format === 'wav') return wavHeader(totalSamples * 2, text);
  return undefined;
}

/** Writes `samples` as 16-bit little-endian into `file` from `at`; where they end. */
export function writeSamples(samples: Int16Array, file: Buffer, at: number): number {
  for (let i = 0; i < samples.length; i++) at = file.writeInt16LE(samples[i]!, at);
  return at;
}

/** An encoder writing `head`, then each slice's samples, into one buffer of the file's size. */
function sizedEncoder(head: Buffer, totalSamples: number): SampleEncoder {
  const file = Buffer.allocUnsafe(head.length + totalSamples * 2);
  let at = head.copy(file, 0);
  return {
    encode: (samples) => {
      at = writeSamples(samples, file, at);
    },
    // Every byte is written by then: a speech's samples are exactly its `totalSamples`.
    finish: () => file.subarray(0, at),
  };
}

export async function pcmEncoder(tags: SpeechTags): Promise<SampleEncoder> {
  return sizedEncoder(sizedHead('pcm', tags)!, tags.totalSamples);
}

export async function wavEncoder(tags: SpeechTags): Promise<SampleEncoder> {
  return sizedEncoder(sizedHead('wav', tags)!, tags.totalSamples);
}
