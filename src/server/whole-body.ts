// A stream's last write, and an unpaced stream's only one: what is framed goes out with the end as
// UTF-8 bytes made in one buffer (frame-bytes.ts), which the next stream writes into again once
// the socket has taken every byte of it; as text otherwise. A write the kernel took at once (a
// stream of a few KB to a client that reads) leaves nothing queued, so the buffer is reused; one
// left queued keeps it, and the next stream gets a buffer of its own.
//
// An unpaced stream whose head Node has made and not sent yet goes out whole in that buffer: the
// head, the body as one chunk and the last chunk, the very bytes Node's `end` would give the
// socket's corked `writev` in five pieces (its head and the chunk's size line joined, the body,
// CRLF, `0` CRLF CRLF), written straight to the socket, past Node's chunk framing and corked
// write path.
import { ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Framed } from './framers.js';

/** Large enough for a 1 KB reply sent a token at a time; a longer stream's end grows it. */
const FIRST_BYTES = 64 * 1024;
/** Past this a stream's end goes as text: a buffer this large is not held for the next one. */
const MOST_BYTES = 1024 * 1024;
/** The end of a chunk and the last chunk, with no trailer: what Node writes after a chunked body. */
const LAST_CHUNK = '\r\n0\r\n\r\n';
/** A chunk's size line at most: up to 8 hex digits (MOST_BYTES is 6) and CRLF. */
const SIZE_LINE_MOST = 10;

let room: Buffer | undefined;

function roomFor(size: number): Buffer | undefined {
  if (size > MOST_BYTES) return undefined;
  if (room === undefined || room.length < size) room = Buffer.allocUnsafeSlow(Math.max(FIRST_BYTES, size));
  return room;
}

/** Node's ServerResponse fields read or set here (lib/_http_outgoing.js). */
interface NodeResponse {
  _header: string | null;
  _headerSent: boolean;
  _hasBody: boolean;
  _trailer: string;
  chunkedEncoding: boolean;
  outputData: unknown[];
}

/**
 * The head Node made for `res` when its body is still to go as chunks after it, in one write of
 * its own: Node's own response (not light-my-request's `inject`, which reads its `end`) on its
 * socket, the head made and not sent, nothing queued before it and no trailer. Else undefined.
 */
function headBefore(res: ServerResponse, socket: Socket): string | undefined {
  const node = res as unknown as NodeResponse;
  if (Object.getPrototypeOf(res) !== ServerResponse.prototype || !(socket instanceof Socket)) return undefined;
  if ((socket as Socket & { _httpMessage?: unknown })._httpMessage !== res || !socket.writable) return undefined;
  if (node._header === null || node._headerSent || !node.chunkedEncoding || !node._hasBody) return undefined;
  return node._trailer === '' && node.outputData.length === 0 ? node._header : undefined;
}

/** Ends `res` with what `pending` holds. */
export function endWith(res: ServerResponse, pending: Framed): void {
  const socket = res.socket;
  // HTTP/1 only: there a write the socket took whole is no longer referenced once `end` returns.
  if (!(res instanceof ServerResponse) || socket === null) return void res.end(pending.take());
  const head = headBefore(res, socket as Socket);
  // Room before the body for the head and the size line, and after it for the last chunk.
  const before = head === undefined ? 0 : head.length + SIZE_LINE_MOST;
  const bytes = pending.takeBytes((size) => roomFor(before + size + LAST_CHUNK.length)?.subarray(before));
  if (bytes === undefined) return void res.end(pending.take());
  if (head === undefined || bytes.length === 0) res.end(bytes);
  else writeWhole(res, socket, head, bytes, before);
  if (res.writableLength > 0 || socket.writableLength > 0) room = undefined;
}

/** The head, `body` (in `room` at `at`) as one chunk and the last chunk, in one write; `res` ended as Node ends a response whose head and body went. */
function writeWhole(res: ServerResponse, socket: Socket, head: string, body: Buffer, at: number): void {
  const into = room!;
  const sizeLine = `${body.length.toString(16)}\r\n`;
  const start = at - sizeLine.length - head.length;
  // Latin-1, as Node writes a head.
  into.write(head, start, 'latin1');
  into.write(sizeLine, at - sizeLine.length, 'latin1');
  const end = at + body.length + into.write(LAST_CHUNK, at + body.length, 'latin1');
  const node = res as unknown as NodeResponse;
  node._headerSent = true;
  // The last chunk went with the body: Node's `end` has nothing more to frame.
  node.chunkedEncoding = false;
  socket.write(into.subarray(start, end));
  // With its head sent and nothing of its own to write, Node's `end` emits 'finish' once the
  // socket has taken what is queued on it, and the server then serves the connection's next request.
  res.end();
}
