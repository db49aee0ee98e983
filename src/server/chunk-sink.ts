// A thousand paced streams write tens of thousands of events a second, one at a time. Node's
// `res.write` frames a piece of a chunked HTTP/1.1 body in four sends (its length, a line break,
// the piece, a line break) and corks the socket with a nextTick to uncork it, so every event is a
// writev of four buffers a tick later. Framed here once and written to the response's own socket,
// an event is one send. Anything else (HTTP/2, a body not sent in chunks, a response still queued
// behind another on its connection) goes through `res.write` as before.
import type { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Socket } from 'node:net';

const CRLF = Buffer.from('\r\n');

/** Where a stream's body goes once its headers are on the wire. */
export interface BodySink {
  /** Writes `data` as the body's next piece; false when the caller should wait for `drains` to emit 'drain'. */
  write(data: string | Uint8Array): boolean;
  readonly drains: EventEmitter;
}

/**
 * The socket a response may write its chunks to itself: a real one (a request injected in
 * process, as the drift command asks its mock, has a stand-in that only `res.write` feeds), its
 * headers sent, nothing of it still queued ahead.
 */
function ownSocket(res: ServerResponse): Socket | undefined {
  const socket = res.socket;
  // `writableLength` counts what the response still holds back plus what its socket has queued.
  if (!res.chunkedEncoding || !res.headersSent || !(socket instanceof Socket) || res.writableLength !== socket.writableLength) return undefined;
  return socket;
}

/** One piece of a chunked body, as Node frames it: its size in hex, the piece, each line ended by CRLF. */
function chunkOf(data: string | Uint8Array): string | Buffer {
  if (typeof data === 'string') return `${Buffer.byteLength(data).toString(16)}\r\n${data}\r\n`;
  return Buffer.concat([Buffer.from(`${data.byteLength.toString(16)}\r\n`), data, CRLF]);
}

/** What `flushHeaders` calls: Node's `_send`, which joins the headers to a piece of text and writes them as one. */
type Sending = ServerResponse & { _send(data: string): boolean };

/**
 * The headers and the stream's first piece in one send. A piece of text goes with them as Node's
 * own first `res.write` of a text sends it: joined into one string, one write (the headers are
 * encoded as `flushHeaders` encodes them alone, as UTF-8). A piece in bytes is held together with
 * them by a cork and sent in one writev.
 */
function withHeaders(res: ServerResponse, socket: Socket, piece: string | Buffer): boolean {
  if (typeof piece === 'string') return (res as Sending)._send(piece);
  socket.cork();
  res.flushHeaders();
  const flowing = socket.write(piece);
  socket.uncork();
  return flowing;
}

/** A paced stream's sink, which may have to send the headers before any piece. */
export interface PacedSink extends BodySink {
  /** Sends the headers alone now, unless a piece has carried them. */
  showHeaders(): void;
}

/** A paced stream on a response without a socket of its own: the response sends the headers with its first piece. */
class ResponseSink implements PacedSink {
  private opened = false;
  constructor(private readonly res: ServerResponse) {}

  get drains(): EventEmitter {
    return this.res;
  }

  write(data: string | Uint8Array): boolean {
    this.opened = true;
    return this.res.write(data);
  }

  showHeaders(): void {
    const res = this.res;
    if (!this.opened && !res.destroyed && !res.writableEnded) res.flushHeaders();
  }
}

/**
 * A paced stream on its own socket. One object a stream, not an object of three closures: a
 * thousand streams asked at once each hold theirs for their whole length.
 */
class SocketSink implements PacedSink {
  private opened = false;
  constructor(
    private readonly res: ServerResponse,
    private readonly socket: Socket,
  ) {}

  get drains(): EventEmitter {
    return this.socket;
  }

  write(data: string | Uint8Array): boolean {
    // An empty piece would read as the body's last chunk.
    if (data.length === 0) return true;
    if (this.opened) return this.socket.write(chunkOf(data));
    this.opened = true;
    return withHeaders(this.res, this.socket, chunkOf(data));
  }

  showHeaders(): void {
    // `headersSent` is true once they are made, before they are on the wire; a stream over at
    // once (a shutdown's) sent them with its end.
    const res = this.res;
    if (this.opened || res.destroyed || res.writableEnded) return;
    this.opened = true;
    res.flushHeaders();
  }
}

/**
 * Where a paced stream's body goes: its own socket when it has one, its first piece in the same
 * send as the headers (a send of the headers alone was one more system call a stream, and one
 * more read for its client); else the response itself, which sends them with its first piece.
 */
export function pacedSink(res: ServerResponse): PacedSink {
  const socket = ownSocket(res);
  return socket ? new SocketSink(res, socket) : new ResponseSink(res);
}
