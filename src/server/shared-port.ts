// One port, several protocols. Every connection goes to the HTTP/1.1 server that accepted it, whose
// parser reads its socket directly; a connection whose first bytes the parser refuses as another
// protocol's opening is taken back and handed to that protocol. HTTP/2 with prior knowledge is the
// first such protocol (the AWS SDK's default handler speaks it to an `http://` endpoint); TLS
// (`tls/tls-port.ts`) is the other.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2Server, Http2ServerRequest, Http2ServerResponse, Http2Session } from 'node:http2';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

/** A request listener that serves both HTTP/1.1 and HTTP/2's compatibility API (Koa's callback does). */
export type DualListener = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => void;

/** How Node's HTTP/1.1 parser refused a connection's bytes (its `clientError`). */
export interface Refusal extends Error {
  code?: string;
  /** The buffer of the read it refused. */
  rawPacket?: Buffer;
  /** How far into `rawPacket` it had read. */
  bytesParsed?: number;
}

/** A protocol a connection may open with, recognised by how the HTTP/1.1 parser refuses its first bytes. */
export interface Protocol {
  /** The bytes the connection has sent so far, when `refusal` is this protocol's opening. */
  opening(refusal: Refusal): Buffer | undefined;
  /** Takes the connection, its first bytes back at the front of its stream. */
  serve(socket: Socket): void;
  /** Lets its connections finish what they are doing and close. */
  closeIdle(): void;
  /** Drops its connections at once. */
  closeAll(): void;
}

/**
 * The socket as a stream that gives its unshifted first bytes again: HTTP/2 and TLS read a net
 * socket's handle directly, past what was put back into its stream, but take any duplex as it is.
 */
export function replaying(socket: Socket): Duplex {
  const duplex = new Duplex({
    read: () => socket.resume(),
    write: (chunk: Buffer, _encoding, done) => socket.write(chunk, done),
    final: (done) => socket.end(done),
    destroy: (error, done) => {
      socket.destroy(error ?? undefined);
      done(error);
    },
  });
  socket.on('data', (chunk: Buffer) => {
    if (!duplex.push(chunk)) socket.pause();
  });
  socket.once('end', () => duplex.push(null));
  socket.once('close', () => duplex.destroy());
  socket.once('error', (error) => duplex.destroy(error));
  return duplex;
}

const HTTP2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

/**
 * HTTP/2 cleartext with prior knowledge: the connection opens with the client preface. Its server
 * is made for the first such connection: Node's HTTP/2 module, loaded at every start, cost more
 * than anything else the port does.
 */
export function http2Cleartext(listener: DualListener): Protocol {
  const sessions = new Set<Http2Session>();
  let made: Http2Server | undefined;
  const server = (): Http2Server => {
    if (made) return made;
    made = process.getBuiltinModule('node:http2').createServer(listener);
    made.on('session', (session) => {
      sessions.add(session);
      session.once('close', () => sessions.delete(session));
    });
    return made;
  };
  return {
    // The parser pauses just past the preface, which may have come in more than one read: the
    // refused read holds its last part and what follows it.
    opening: ({ code, rawPacket, bytesParsed }) =>
      code === 'HPE_PAUSED_H2_UPGRADE' && rawPacket ? Buffer.concat([HTTP2_PREFACE, rawPacket.subarray(bytesParsed)]) : undefined,
    serve: (socket) => server().emit('connection', replaying(socket)),
    closeIdle: () => sessions.forEach((session) => session.close()),
    closeAll: () => sessions.forEach((session) => session.destroy()),
  };
}

/**
 * Node's HTTP/1.1 server lets go of a socket it was reading, as it does for an upgrade: its
 * listeners off, its parser no longer reading the socket's handle nor counted among its
 * connections (whose header timeout would end it). Without a parser, Node's wrapped `on` puts the
 * socket's own back at its next call.
 */
function releaseFromHttp1(socket: Socket): void {
  const held = socket as Socket & { parser?: { _consumed?: boolean; unconsume(): void; remove(): void } | null };
  for (const event of ['data', 'end', 'close', 'drain', 'error', 'timeout', 'resume', 'pause']) socket.removeAllListeners(event);
  const parser = held.parser;
  if (parser) {
    if (parser._consumed) parser.unconsume();
    parser._consumed = false;
    parser.remove();
  }
  held.parser = null;
}

/**
 * Shares `server`'s port with `protocols`: a connection the HTTP/1.1 parser refuses at its first
 * bytes as one of their openings goes to that protocol, its bytes put back at the front; any other
 * refusal goes to `server`'s own `clientError` listeners. Bytes refused later on a connection
 * (after a request) are never another protocol's opening.
 */
export function sharePort(server: Server, protocols: readonly Protocol[]): Pick<Protocol, 'closeIdle' | 'closeAll'> {
  const refusals = server.listeners('clientError') as Array<(refusal: Refusal, socket: Duplex) => void>;
  server.removeAllListeners('clientError');
  server.on('clientError', (refusal: Refusal, socket: Duplex) => {
    const own = socket as Socket & { server?: unknown };
    // A connection of this server's own (not one a TLS server re-emits), refused at its first bytes.
    for (const protocol of own.server === server ? protocols : []) {
      const opening = protocol.opening(refusal);
      if (opening?.length !== own.bytesRead) continue;
      releaseFromHttp1(own);
      own.pause();
      own.unshift(opening);
      protocol.serve(own);
      own.resume();
      return;
    }
    for (const refuse of refusals) refuse.call(server, refusal, socket);
  });
  return {
    closeIdle: () => protocols.forEach((protocol) => protocol.closeIdle()),
    closeAll: () => protocols.forEach((protocol) => protocol.closeAll()),
  };
}
