// TLS on the port plain HTTP is served on: a connection whose first byte is a TLS handshake
// record is answered by HTTP/1.1 inside TLS, with the same request listener and the same
// WebSocket upgrades, so every route works over https as over http. The certificate is read (or
// made) at the first such connection: a client that never speaks TLS never causes one. Node's TLS
// modules are loaded then too, not at start.
import type { Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { keepConnections } from '../connections.js';
import { replaying, type DualListener, type Protocol } from '../shared-port.js';
import type { Credentials } from './local-ca.js';

/** The first byte of a TLS record carrying a handshake (RFC 8446, 5.1). */
const HANDSHAKE = 0x16;

export function tlsOnSamePort(listener: DualListener, plain: Server, credentials: () => Promise<Credentials>): Protocol {
  let secure: Promise<HttpsServer> | undefined;
  const streams = new Set<Duplex>();
  const secureServer = async () => {
    const [{ createServer }, own] = await Promise.all([import('node:https'), credentials()]);
    const server = createServer(own, listener);
    keepConnections(server as unknown as Server);
    // Upgrades and malformed requests are the plain server's to answer: one place for each.
    server.on('upgrade', (...args) => plain.emit('upgrade', ...args));
    server.on('clientError', (...args) => plain.emit('clientError', ...args));
    server.on('tlsClientError', (_error, socket) => socket.destroy());
    return server;
  };
  return {
    // The parser refuses a handshake record's first byte as a method's.
    opening: ({ code, rawPacket, bytesParsed }) =>
      code === 'HPE_INVALID_METHOD' && bytesParsed === 0 && rawPacket?.[0] === HANDSHAKE ? rawPacket : undefined,
    serve(socket: Socket) {
      // The stream is made now, so the bytes that arrive while the certificate is read are kept.
      const stream = replaying(socket);
      streams.add(stream);
      stream.once('close', () => streams.delete(stream));
      secure ??= secureServer();
      secure.then(
        (server) => server.emit('connection', stream),
        () => stream.destroy(),
      );
    },
    closeIdle: () => void secure?.then((server) => server.closeIdleConnections()),
    closeAll: () => streams.forEach((stream) => stream.destroy()),
  };
}
