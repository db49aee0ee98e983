// The two formats that need no codec: raw 16-bit little-endian samples, and WAV around them.
// Their size is known before the first sample, so each file is written into one buffer of that
// size: collected in slices and joined, a 55-minute speech (157 MB) was held twice at its end.
import type { SampleEncoder, SpeechTags } from './encoder.js';
import { wavHeader } from './wav.js';

/** An encoder writing `head`, then each slice's samples, into one buffer of the file's size. */
function sizedEncoder(head: Buffer, totalSamples: number): SampleEncoder {
  const file = Buffer.allocUnsafe(head.length + totalSamples * 2);
  let at = head.copy(file, 0);
  return {
    encode: (samples) => {
      for (let i = 0; i < samples.length; i++) at = file.writeInt16LE(samples[i]!, at);
    },
    // Every byte is written by then: a speech's samples are exactly its `totalSamples`.
    finish: () => file.subarray(0, at),
  };
}

export async function pcmEncoder({ totalSamples }: SpeechTags): Promise<SampleEncoder> {
  return sizedEncoder(Buffer.alloc(0), totalSamples);
}

export async function wavEncoder({ text, totalSamples }: SpeechTags): Promise<SampleEncoder> {
  return sizedEncoder(wavHeader(totalSamples * 2, text), totalSamples);
}
