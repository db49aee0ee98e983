// FLAC through libFLAC compiled to WebAssembly (libflacjs). The stream encoder cannot seek back,
// so the header is rebuilt at the end: STREAMINFO gets the sample count and MD5 it could not
// know at the start, and a Vorbis comment block carries the text.
import { createRequire } from 'node:module';
import { collector, type SampleEncoder, type SpeechTags } from './encoder.js';
import { SAMPLE_RATE } from './tones.js';
import { VENDOR, vorbisComment } from './vorbis-comment.js';

interface FlacEncoder {
  encode(samples?: Int32Array, count?: number): boolean;
  getSamples(): Uint8Array;
  readonly metadata?: { md5sum?: string };
  /** What the encoder listens to the library's `destroyed` event with (its own, undocumented). */
  readonly _onDestroyed: () => void;
  destroy(): void;
}
interface FlacLibrary {
  isReady(): boolean;
  on(event: 'ready', handler: () => void): void;
  off(event: 'destroyed', handler: () => void): void;
}
type EncoderClass = new (flac: FlacLibrary, options: Record<string, unknown>) => FlacEncoder;

const STREAMINFO = 0;
const VORBIS_COMMENT = 4;

let loaded: Promise<{ flac: FlacLibrary; Encoder: EncoderClass }> | undefined;

function load(): Promise<{ flac: FlacLibrary; Encoder: EncoderClass }> {
  return (loaded ??= new Promise((resolve) => {
    const require = createRequire(import.meta.url);
    // Its Emscripten loader fetches the .wasm by URL whenever `fetch` exists, which fails for a
    // file path in Node; without it, it reads the file. The look-up happens during the require.
    const { fetch } = globalThis;
    (globalThis as { fetch?: unknown }).fetch = undefined;
    let flac: FlacLibrary;
    try {
      flac = (require('libflacjs') as (variant: string) => FlacLibrary)('min.wasm');
    } finally {
      globalThis.fetch = fetch;
    }
    const { Encoder } = require('libflacjs/lib/encoder') as { Encoder: EncoderClass };
    if (flac.isReady()) resolve({ flac, Encoder });
    else flac.on('ready', () => resolve({ flac, Encoder }));
  }));
}

function block(type: number, body: Buffer, last: boolean): Buffer {
  const header = Buffer.from([type | (last ? 0x80 : 0), (body.length >> 16) & 0xff, (body.length >> 8) & 0xff, body.length & 0xff]);
  return Buffer.concat([header, body]);
}

/** `fLaC`, the STREAMINFO (completed), our comment block, then the frames; other blocks dropped. */
function withTags(stream: Buffer, totalSamples: number, md5: string | undefined, text: string): Buffer {
  let offset = 4;
  let streamInfo: Buffer | undefined;
  for (;;) {
    const type = stream[offset]! & 0x7f;
    const length = stream.readUIntBE(offset + 1, 3);
    if (type === STREAMINFO) streamInfo = Buffer.from(stream.subarray(offset + 4, offset + 4 + length));
    const last = (stream[offset]! & 0x80) !== 0;
    offset += 4 + length;
    if (last) break;
  }
  if (!streamInfo) throw new Error('libFLAC wrote no STREAMINFO block');
  // Bytes 13-17 hold 4 bits of the sample size and the 36-bit sample count.
  streamInfo[13] = (streamInfo[13]! & 0xf0) | Math.floor(totalSamples / 2 ** 32);
  streamInfo.writeUInt32BE(totalSamples >>> 0, 14);
  if (md5 && /^[0-9a-f]{32}$/.test(md5)) Buffer.from(md5, 'hex').copy(streamInfo, 18);
  const comment = vorbisComment([['ENCODER', VENDOR], ['COMMENT', text]]);
  return Buffer.concat([Buffer.from('fLaC'), block(STREAMINFO, streamInfo, false), block(VORBIS_COMMENT, comment, true), stream.subarray(offset)]);
}

export async function flacEncoder({ text, totalSamples }: SpeechTags): Promise<SampleEncoder> {
  const { flac, Encoder } = await load();
  const encoder = new Encoder(flac, { sampleRate: SAMPLE_RATE, channels: 1, bitsPerSample: 16, compression: 5, verify: false, totalSamples });
  return {
    encode(samples) {
      // A fresh array each time: the library reads the whole underlying buffer of what it is given.
      encoder.encode(Int32Array.from(samples), samples.length);
    },
    finish() {
      encoder.encode();
      const out = collector();
      const data = encoder.getSamples();
      out.add(data);
      const md5 = encoder.metadata?.md5sum;
      // The library tells every live encoder of each one destroyed, walking its listener list to
      // the length it had at the start: the destroyed one leaving the list mid-walk made the walk
      // call past its end (a TypeError, a 500 when two FLAC speeches overlapped). Leaving first
      // keeps the list still while it is walked.
      flac.off('destroyed', encoder._onDestroyed);
      encoder.destroy();
      return withTags(out.bytes(), totalSamples, md5, text);
    },
  };
}
