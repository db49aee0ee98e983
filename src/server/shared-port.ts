// One port, several protocols. Each connection is told by its first bytes: a protocol that
// recognises them takes it, else it stays with the HTTP/1.1 server that accepted it. HTTP/2 with
// prior knowledge is the first such protocol (the AWS SDK's default handler speaks it to an
// `http://` endpoint); TLS (`tls/tls-port.ts`) is the other.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2Server, Http2ServerRequest, Http2ServerResponse, Http2Session } from 'node:http2';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

/** A request listener that serves both HTTP/1.1 and HTTP/2's compatibility API (Koa's callback does). */
export type DualListener = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => void;

/** A protocol a connection may open with, recognised by its first bytes. */
export interface Protocol {
  /** True or false once `head` tells; undefined while more bytes are needed to tell. */
  opens(head: Buffer): boolean | undefined;
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
    opens(head) {
      const seen = Math.min(head.length, HTTP2_PREFACE.length);
      if (!head.subarray(0, seen).equals(HTTP2_PREFACE.subarray(0, seen))) return false;
      return seen === HTTP2_PREFACE.length ? true : undefined;
    },
    serve: (socket) => server().emit('connection', replaying(socket)),
    closeIdle: () => sessions.forEach((session) => session.close()),
    closeAll: () => sessions.forEach((session) => session.destroy()),
  };
}

/**
 * Routes each connection `server` accepts by its first bytes: to the first of `protocols` that
 * recognises them, else to `server`'s own HTTP/1.1 handling. A connection still undecided is
 * dropped by either close.
 */
export function sharePort(server: Server, protocols: readonly Protocol[]): Pick<Protocol, 'closeIdle' | 'closeAll'> {
  const http1 = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  const undecided = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    undecided.add(socket);
    let head = Buffer.alloc(0);
    const decide = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const verdicts = protocols.map((protocol) => protocol.opens(head));
      const taker = protocols[verdicts.indexOf(true)];
      if (!taker && verdicts.includes(undefined)) return;
      socket.off('data', decide);
      socket.off('close', forget);
      undecided.delete(socket);
      socket.pause();
      socket.unshift(head);
      if (taker) taker.serve(socket);
      else for (const take of http1) take.call(server, socket);
      socket.resume();
    };
    const forget = () => undecided.delete(socket);
    socket.on('data', decide);
    socket.once('close', forget);
  });
  const dropUndecided = () => undecided.forEach((socket) => socket.destroy());
  return {
    closeIdle: () => {
      dropUndecided();
      protocols.forEach((protocol) => protocol.closeIdle());
    },
    closeAll: () => {
      dropUndecided();
      protocols.forEach((protocol) => protocol.closeAll());
    },
  };
}
