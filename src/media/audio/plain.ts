// The two formats that need no codec: raw 16-bit little-endian samples, and WAV around them.
import { collector, type SampleEncoder, type SpeechTags } from './encoder.js';
import { wavHeader } from './wav.js';

function samplesLE(samples: Int16Array): Buffer {
  const bytes = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) bytes.writeInt16LE(samples[i]!, i * 2);
  return bytes;
}

export async function pcmEncoder(): Promise<SampleEncoder> {
  const out = collector();
  return { encode: (samples) => out.add(samplesLE(samples)), finish: out.bytes };
}

export async function wavEncoder({ text, totalSamples }: SpeechTags): Promise<SampleEncoder> {
  const out = collector();
  out.add(wavHeader(totalSamples * 2, text));
  return { encode: (samples) => out.add(samplesLE(samples)), finish: out.bytes };
}
