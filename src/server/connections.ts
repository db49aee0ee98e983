// How long the mock keeps a connection: long enough that the client, not the mock, closes idle
// keep-alive connections. Node's own 5 s is below what clients allow themselves (undici keeps a
// socket as long as the server's `keep-alive: timeout=` says, Python's pools and browsers for
// minutes), so a client could reuse a socket at the moment the mock dropped it, and see a reset.
// 65 s is the usual choice behind proxies that keep 60 s; the headers' bound must exceed it.
import type { Server } from 'node:http';

export const KEEP_ALIVE_MS = 65_000;

export function keepConnections(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
}
