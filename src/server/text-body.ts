// A whole answer's text as the response body. A large one is written a piece at a time, the loop
// given back between slices: 17 MB of embeddings JSON converted to bytes and written in one call
// held the loop for 200 ms on a busy machine.
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { Slice } from '../state/event-loop.js';

/** Texts up to this many characters are written in one call, as the usual answer is. */
const WRITTEN_WHOLE = 1024 * 1024;
/** Characters converted to bytes at a time. */
const PIECE = 256 * 1024;

/** Where a piece starting at `from` ends: never between the two halves of a surrogate pair. */
function pieceEnd(text: string, from: number): number {
  const end = Math.min(from + PIECE, text.length);
  const last = text.charCodeAt(end - 1);
  return end < text.length && last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

/** The text's UTF-8 bytes a piece at a time, other clients' work between slices. */
export async function* textPieces(text: string): AsyncGenerator<Buffer> {
  const slice = new Slice();
  for (let from = 0; from < text.length; ) {
    if (slice.over) await slice.next();
    const end = pieceEnd(text, from);
    yield Buffer.from(text.slice(from, end), 'utf8');
    from = end;
  }
}

/** Sets `text` as the body (its Content-Type already set), with its length in bytes. */
export function setTextBody(ctx: Context, text: string): void {
  if (text.length <= WRITTEN_WHOLE) {
    ctx.body = text;
    return;
  }
  ctx.body = Readable.from(textPieces(text), { objectMode: false });
  ctx.length = Buffer.byteLength(text, 'utf8');
}
