// A whole answer's text as the response body. A large one is written a piece at a time, the loop
// given back between slices: 17 MB of embeddings JSON converted to bytes and written in one call
// held the loop for 200 ms on a busy machine. An answer made in pieces (embeddings' vectors) stays
// in them: joining, or counting the bytes of, 17 MB put together from thousands of strings copies
// it whole in one turn (100 ms), where pieces each made whole are counted without a copy.
import { Readable } from 'node:stream';
import type { ShellContext } from './shell-context.js';
import { lengthOf, textPieces } from '../conversation/text-pieces.js';
import { Slice } from '../state/event-loop.js';

/** Texts up to this many characters are written in one call, as the usual answer is. */
const WRITTEN_WHOLE = 1024 * 1024;
/** Characters converted to bytes at a time. */
const PIECE = 256 * 1024;

/** The UTF-8 bytes of `texts` in order, about PIECE characters a buffer, other clients' work between slices. */
export async function* bytePieces(texts: readonly string[]): AsyncGenerator<Buffer> {
  const slice = new Slice();
  let group: string[] = [];
  let chars = 0;
  for (const text of texts) {
    for (const piece of textPieces(text, PIECE)) {
      group.push(piece);
      chars += piece.length;
      if (chars < PIECE) continue;
      if (slice.over) await slice.next();
      yield bytesOf(group);
      group = [];
      chars = 0;
    }
  }
  if (group.length > 0) yield bytesOf(group);
}

/** Small pieces are written into one buffer, never joined into one more string first. */
function bytesOf(pieces: readonly string[]): Buffer {
  if (pieces.length === 1) return Buffer.from(pieces[0]!, 'utf8');
  const bytes = Buffer.allocUnsafe(byteLength(pieces));
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at, 'utf8');
  return bytes;
}

function byteLength(pieces: readonly string[]): number {
  let bytes = 0;
  for (const piece of pieces) bytes += Buffer.byteLength(piece, 'utf8');
  return bytes;
}

/**
 * Sets the answer, whole or as the pieces that joined make it, as the body (its Content-Type
 * already set), with its length in bytes.
 */
export function setTextBody(ctx: ShellContext, text: string | readonly string[]): void {
  if (lengthOf(text) <= WRITTEN_WHOLE) {
    ctx.body = typeof text === 'string' ? text : text.join('');
    return;
  }
  const texts = typeof text === 'string' ? [text] : text;
  ctx.body = Readable.from(bytePieces(texts), { objectMode: false });
  ctx.length = byteLength(texts);
}
