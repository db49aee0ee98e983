// The library entry: `startMockServer(options)` for tests and embedding, and the public types.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { modesOf, summarize } from './config/summary.js';
import { inProcessAdmin } from './admin/client.js';
import { oracle, type Oracle } from './admin/oracle.js';
import { loadFormParser } from './server/form-parser.js';
import { answerClientError } from './server/client-error.js';
import { keepConnections } from './server/connections.js';
import { http2Cleartext, sharePort } from './server/shared-port.js';
import { liveUpgrades } from './server/live-upgrade.js';
import { tlsSource } from './server/tls/credentials.js';
import { tlsOnSamePort } from './server/tls/tls-port.js';
import { loadTokenizer, readTokenizerAhead } from './conversation/tokenizer.js';
import { connectionAccepted } from './state/accepting.js';
import type { Clock } from './state/clock.js';
import { Tracing } from './server/tracing.js';
import { assembleMock, type MockServerOptions } from './mock-app.js';

export { defaultDir, dirsOf, parseBodyLimit, type MockServerOptions } from './mock-app.js';

export interface MockServer extends Oracle {
  url: string;
  port: number;
  clock: Clock;
  /** Reload attempts so far; wait on it after writing a fixture file. */
  reloads(): number;
  /** The local CA's PEM file (made on first use) for clients to trust over https; undefined with `tlsCert`. */
  tlsCa(): Promise<string | undefined>;
  /** What is loaded, as the line after the listening line says it. */
  summary(): string;
  /** The modes that change what answers (upstream, recording, drift, clock, OTLP, TLS's CA), as the next line says them; undefined when none is on. */
  modes(): string | undefined;
  /** Closes at once: open connections are dropped. */
  close(): Promise<void>;
  /**
   * Stops accepting, lets open streams finish for `graceMs` (default the `graceMs` option), then
   * ends each still open with its style's in-stream error event, and closes.
   */
  shutdown(graceMs?: number): Promise<void>;
}

/** A port already taken says which, and the flag that picks another. */
function portTaken(error: unknown, port: number): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') return error;
  return new Error(`port ${port} is already in use: stop what holds it, or pass --port with another (--port 0 picks a free one)`, { cause: error });
}

/** What the kernel allows at most (net.core.somaxconn is 4096 on current Linux). */
const LISTEN_BACKLOG = 4096;

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  // The tokenizer's 4 MB are read on another core while the mock is assembled and listens.
  readTokenizerAhead();
  const endpoint = options.otlpEndpoint ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const tracing = endpoint ? new Tracing(endpoint) : undefined;
  const { mock, streams, listener } = assembleMock(options, { tracing });
  const { store, clock, log } = mock;
  const host = options.host ?? '127.0.0.1';
  if (options.watch ?? true) store.watch();
  const tls = tlsSource({ ...options, host });
  const server = createServer(listener);
  server.on('clientError', answerClientError);
  server.on('upgrade', liveUpgrades(mock));
  keepConnections(server);
  // Requests wait while a burst's connections are taken in (state/accepting.ts).
  server.on('connection', connectionAccepted);
  const shared = sharePort(server, [http2Cleartext(listener), tlsOnSamePort(listener, server, tls.credentials)]);
  if (!isLoopback(host) && !options.adminToken) {
    log('error', `warning: listening on ${host} without --admin-token: anyone who can reach this address can drive the admin API`);
  }
  const listening = new Promise<void>((done, fail) => {
    server.once('error', fail);
    // Node's default backlog (511) drops part of a burst of connections (a suite opening 1,000
    // streams at once), each dropped one waiting a second for the SYN to be sent again.
    server.listen({ port: options.port ?? 0, host, backlog: LISTEN_BACKLOG }, () => done());
  });
  try {
    await listening;
  } catch (error) {
    await store.close();
    throw portTaken(error, options.port ?? 0);
  }
  // The tokenizer's tables (read by now) are made two turns of the event loop from now: after
  // whatever the caller prints on listening has gone out (the log sink writes at the end of a
  // turn), before the first request would wait for them.
  // The tracing SDK likewise, after the tokenizer: what is answered before it loads waits in a
  // queue; then the form parser, each in a turn of its own. prom-client waits for the first scrape.
  setImmediate(() => setImmediate(() => {
    loadTokenizer();
    setImmediate(() => {
      tracing?.load().catch((error: Error) => log('error', `tracing could not start: ${error.message}`));
      setImmediate(() => void loadFormParser());
    });
  }));
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const close = async (): Promise<void> => {
    await store.close();
    // The collector's last flush and the sockets' end go together: neither waits on the other.
    await Promise.all([
      tracing?.shutdown().then((lost) => lost && log('error', lost)),
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
        shared.closeAll();
      }),
    ]);
  };
  return {
    ...oracle(inProcessAdmin(mock)),
    url,
    port,
    clock,
    reloads: () => store.reloads,
    tlsCa: tls.caFile,
    summary: () => `${summarize(store.current)}; inspector ${url}/__admin/ui`,
    modes: () => modesOf({ ...options, otlpEndpoint: endpoint, tlsCa: tls.caPath }),
    close,
    shutdown: async (graceMs = options.graceMs ?? 5000) => {
      server.close();
      server.closeIdleConnections();
      shared.closeIdle();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([streams.drained(), new Promise((done) => (timer = setTimeout(done, graceMs)))]);
      clearTimeout(timer);
      streams.interruptAll();
      await Promise.race([streams.drained(), new Promise((done) => (timer = setTimeout(done, 1000)))]);
      clearTimeout(timer);
      await close();
    },
  };
}

export type { LatencyMode, LogLevel } from './exchange/mock.js';
export type { Oracle, VerifyOptions } from './admin/oracle.js';
export { VerifyError } from './admin/oracle.js';
export type { CountSpec, Expectation, RequestFilter } from './exchange/admin/verify/expectation.js';
export type { VerifyResult } from './exchange/admin/verify/check.js';
export type { VerifyAnswer } from './exchange/admin/verify/verify.js';
export { ConfigLoadError } from './config/store.js';
