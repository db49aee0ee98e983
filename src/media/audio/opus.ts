// Opus through libopus compiled to WebAssembly (opusscript), in Ogg pages (RFC 7845): an
// OpusHead, an OpusTags packet carrying the text, then 20 ms packets, about a second a page.
import { createRequire } from 'node:module';
import type OpusScript from 'opusscript';
import { collector, type SampleEncoder, type SpeechTags } from './encoder.js';
import { oggPage } from './ogg.js';
import { SAMPLE_RATE } from './tones.js';
import { vorbisComment, VENDOR } from './vorbis-comment.js';

const FRAME = SAMPLE_RATE / 50; // 20 ms
const GRANULES_PER_SAMPLE = 48_000 / SAMPLE_RATE; // Ogg Opus counts time at 48 kHz
const PRE_SKIP = 312; // libopus's look-ahead, in 48 kHz samples
const PACKETS_PER_PAGE = 50;
const SET_COMPLEXITY = 4010; // OPUS_SET_COMPLEXITY_REQUEST: a tone needs no effort to sound right
const SERIAL = 0x6d676d; // any number names the one stream

let library: typeof OpusScript | undefined;

function opusHead(): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1; // version
  head[9] = 1; // channels
  head.writeUInt16LE(PRE_SKIP, 10);
  head.writeUInt32LE(SAMPLE_RATE, 12);
  return head; // gain 0, mapping family 0
}

export async function opusEncoder({ text, totalSamples }: SpeechTags): Promise<SampleEncoder> {
  library ??= createRequire(import.meta.url)('opusscript') as typeof OpusScript;
  const opus = new library(SAMPLE_RATE, 1, library.Application.AUDIO);
  opus.encoderCTL(SET_COMPLEXITY, 0);
  const out = collector();
  let sequence = 0;
  const page = (packets: Uint8Array[], granule: number, flags: { first?: boolean; last?: boolean } = {}) => out.add(oggPage(SERIAL, sequence++, { packets, granule, ...flags }));
  page([opusHead()], 0, { first: true });
  page([Buffer.concat([Buffer.from('OpusTags'), vorbisComment([['ENCODER', VENDOR], ['COMMENT', text]])])], 0);
  let pending = new Int16Array(0);
  let packets: Uint8Array[] = [];
  let encoded = 0;
  const flush = (last: boolean) => {
    const granule = last ? PRE_SKIP + totalSamples * GRANULES_PER_SAMPLE : PRE_SKIP + encoded * GRANULES_PER_SAMPLE;
    page(packets, granule, { last });
    packets = [];
  };
  const encodeFrames = (samples: Int16Array, final: boolean) => {
    let at = 0;
    for (; at + FRAME <= samples.length || (final && at < samples.length); at += FRAME) {
      const frame = new Int16Array(FRAME);
      frame.set(samples.subarray(at, at + FRAME));
      packets.push(Buffer.from(opus.encode(Buffer.from(frame.buffer), FRAME)));
      encoded += FRAME;
      if (packets.length === PACKETS_PER_PAGE) flush(false);
    }
    return samples.subarray(at);
  };
  return {
    encode(samples) {
      const joined = new Int16Array(pending.length + samples.length);
      joined.set(pending);
      joined.set(samples, pending.length);
      pending = Int16Array.from(encodeFrames(joined, false));
    },
    finish() {
      encodeFrames(pending, true);
      // The end page's granule trims the padding of the last frame.
      flush(true);
      opus.delete();
      return out.bytes();
    },
  };
}
