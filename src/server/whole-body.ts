// A stream's last write, and an unpaced stream's only one: what is framed goes out with the end as
// UTF-8 bytes made in one buffer (frame-bytes.ts), which the next stream writes into again once
// the socket has taken every byte of it; as text otherwise. A write the kernel took at once (a
// stream of a few KB to a client that reads) leaves nothing queued, so the buffer is reused; one
// left queued keeps it, and the next stream gets a buffer of its own.
import { ServerResponse } from 'node:http';
import type { Framed } from './framers.js';

/** Large enough for a 1 KB reply sent a token at a time; a longer stream's end grows it. */
const FIRST_BYTES = 64 * 1024;
/** Past this a stream's end goes as text: a buffer this large is not held for the next one. */
const MOST_BYTES = 1024 * 1024;

let room: Buffer | undefined;

function roomFor(size: number): Buffer | undefined {
  if (size > MOST_BYTES) return undefined;
  if (room === undefined || room.length < size) room = Buffer.allocUnsafeSlow(Math.max(FIRST_BYTES, size));
  return room;
}

/** Ends `res` with what `pending` holds. */
export function endWith(res: ServerResponse, pending: Framed): void {
  const socket = res.socket;
  // HTTP/1 only: there a write the socket took whole is no longer referenced once `end` returns.
  const bytes = res instanceof ServerResponse && socket !== null ? pending.takeBytes(roomFor) : undefined;
  if (bytes === undefined) return void res.end(pending.take());
  res.end(bytes);
  if (res.writableLength > 0 || socket!.writableLength > 0) room = undefined;
}
