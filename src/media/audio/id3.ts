// An ID3v2.4 tag for the front of an MP3: the spoken text as a comment (COMM) and who made it
// (TENC), as players and tag readers show them.
import { VENDOR } from './vorbis-comment.js';

const UTF8 = 3;

/** A 28-bit number as ID3 writes sizes: 7 bits a byte. */
function syncsafe(size: number): Buffer {
  return Buffer.from([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
}

function frame(id: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(id, 'latin1'), syncsafe(body.length), Buffer.alloc(2), body]);
}

export function id3Tag(text: string): Buffer {
  const comment = frame('COMM', Buffer.concat([Buffer.from([UTF8]), Buffer.from('eng'), Buffer.alloc(1), Buffer.from(text, 'utf8')]));
  const encoder = frame('TENC', Buffer.concat([Buffer.from([UTF8]), Buffer.from(VENDOR, 'utf8')]));
  const frames = Buffer.concat([encoder, comment]);
  return Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0]), syncsafe(frames.length), frames]);
}
