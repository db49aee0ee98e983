// MP3 through LAME compiled to WebAssembly (wasm-media-encoders), behind an ID3v2 tag that
// carries the text. The codec loads on the first MP3 asked for, so start-up does not pay for it.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { WasmMediaEncoder } from 'wasm-media-encoders';
import { collector, type SampleEncoder, type SpeechTags } from './encoder.js';
import { id3Tag } from './id3.js';
import { SAMPLE_RATE } from './tones.js';

type Lame = WasmMediaEncoder<'audio/mpeg'>;
type Codec = Parameters<typeof WasmMediaEncoder.create>[1];

/** The compiled codec, once the first encoder has compiled it from the package's .wasm file. */
let compiled: Codec | undefined;

async function codec(): Promise<Codec> {
  return compiled ?? readFile(createRequire(import.meta.url).resolve('wasm-media-encoders/wasm/mp3'));
}

export async function mp3Encoder({ text }: SpeechTags): Promise<SampleEncoder> {
  const { createEncoder } = await import('wasm-media-encoders');
  // Compiling is asynchronous, so other clients go on meanwhile; the module is kept for the next.
  const lame: Lame = await createEncoder('audio/mpeg', await codec(), (module) => {
    compiled = module;
  });
  // Constant bit rate, so a player's duration estimate from the file size is exact.
  lame.configure({ sampleRate: SAMPLE_RATE, channels: 1, bitrate: 48 });
  const out = collector();
  out.add(id3Tag(text));
  return {
    encode(samples) {
      const floats = new Float32Array(samples.length);
      for (let i = 0; i < samples.length; i++) floats[i] = samples[i]! / 32768;
      out.add(lame.encode([floats]));
    },
    finish() {
      out.add(lame.finalize());
      return out.bytes();
    },
  };
}
