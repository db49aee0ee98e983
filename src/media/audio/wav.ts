// WAV: a RIFF header, a LIST/INFO chunk that carries the spoken text (ICMT) and who made it
// (ISFT), then the 16-bit samples.
import { SAMPLE_RATE } from './tones.js';
import { VENDOR } from './vorbis-comment.js';

function chunk(id: string, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'latin1');
  header.writeUInt32LE(body.length, 4);
  // Chunks are padded to an even length.
  return Buffer.concat(body.length % 2 ? [header, body, Buffer.alloc(1)] : [header, body]);
}

function infoText(text: string): Buffer {
  return Buffer.concat([Buffer.from(text, 'utf8'), Buffer.alloc(1)]);
}

/** Everything before the samples, for `dataBytes` bytes of samples; without a text, no LIST chunk (a plain recording). */
export function wavHeader(dataBytes: number, text?: string): Buffer {
  const format = Buffer.alloc(16);
  format.writeUInt16LE(1, 0); // PCM
  format.writeUInt16LE(1, 2); // mono
  format.writeUInt32LE(SAMPLE_RATE, 4);
  format.writeUInt32LE(SAMPLE_RATE * 2, 8);
  format.writeUInt16LE(2, 12);
  format.writeUInt16LE(16, 14);
  const info = text === undefined ? Buffer.alloc(0) : chunk('LIST', Buffer.concat([Buffer.from('INFO'), chunk('ISFT', infoText(VENDOR)), chunk('ICMT', infoText(text))]));
  const dataHeader = Buffer.alloc(8);
  dataHeader.write('data', 0, 'latin1');
  dataHeader.writeUInt32LE(dataBytes, 4);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + 8 + format.length + info.length + 8 + dataBytes, 4);
  riff.write('WAVE', 8, 'latin1');
  return Buffer.concat([riff, chunk('fmt ', format), info, dataHeader]);
}
