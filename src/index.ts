// The library entry: `startMockServer(options)` for tests and embedding, and the public types.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import bytes from 'bytes';
import { ConfigStore, formatProblem } from './config/store.js';
import { summarize } from './config/summary.js';
import { inProcessAdmin } from './admin/client.js';
import { oracle, type Oracle } from './admin/oracle.js';
import { adminAccess } from './server/admin-guard.js';
import { createApp } from './server/app.js';
import { OpenStreams } from './server/open-streams.js';
import { answerClientError } from './server/client-error.js';
import { keepConnections } from './server/connections.js';
import type { LatencyMode, LogLevel, Mock } from './exchange/mock.js';
import { printLine } from './log-sink.js';
import { timed } from './log-time.js';
import { loadTokenizer } from './conversation/tokens.js';
import { createClock, type Clock } from './state/clock.js';
import { EventHub } from './state/events.js';
import { upstreamOf } from './exchange/upstream/options.js';
import { DEFAULT_MEMORY_LIMIT, DEFAULT_SESSION_MEMORY_LIMIT, MemoryBudget } from './state/memory.js';
import { Metrics } from './state/metrics.js';
import { Tracing } from './server/tracing.js';
import { Sessions } from './state/sessions.js';
import { DriftLog } from './exchange/upstream/drift-log.js';
import { PACKAGE_ROOT } from './package-root.js';

export interface MockServerOptions {
  /** 0 (the default here) picks a free port. */
  port?: number;
  host?: string;
  /** Directories whose sections merge in the order given. */
  fixtures?: string | readonly string[];
  scenarios?: string | readonly string[];
  /** Forward what no fixture answers to this base URL (SPEC 12). */
  upstream?: string;
  /** With `upstream`: the key that replaces the client's on forwarded requests (default: UPSTREAM_API_KEY). */
  upstreamKey?: string;
  /** With `upstream`: write each forwarded exchange into this directory as fixtures, and serve them. */
  record?: string;
  /** With `upstream`: compare each forwarded answer's shape with the mock's own (SPEC 18), in `GET /__admin/drift`. */
  drift?: boolean;
  seed?: number;
  /** Stream pacing; `none` (the default here) sends as fast as the socket takes it. */
  latency?: LatencyMode;
  /** `real`, `manual` or an ISO time. */
  clock?: string;
  strict?: boolean;
  journalMax?: number;
  /** Bytes, or a size such as `50mb`. */
  bodyLimit?: number | string;
  /** What all sessions hold together (journal, stored responses, run-time fixtures, pictures, tasks, files and batches); default `128mb`. */
  memoryLimit?: number | string;
  /** What one session holds; default `16mb`. */
  sessionMemoryLimit?: number | string;
  /** Required as `Authorization: Bearer TOKEN` on the admin API; an empty one is refused. */
  adminToken?: string;
  /** Origins besides loopback whose pages may call the admin API, e.g. `http://app.test:3000`. */
  adminOrigin?: string | string[];
  /** Host names besides the bound address and loopback the admin API answers to. */
  adminHost?: string | string[];
  watch?: boolean;
  /** How long `shutdown()` lets open streams finish before ending them (default 5000). */
  graceMs?: number;
  /** `silent` (the default here), `error`, `info` or `debug`. */
  logLevel?: LogLevel;
  /** An OTLP/HTTP collector to export a span per model API request to (default: OTEL_EXPORTER_OTLP_ENDPOINT). */
  otlpEndpoint?: string;
  /** Where log lines go; console.log by default. */
  logger?: (line: string) => void;
}

export interface MockServer extends Oracle {
  url: string;
  port: number;
  clock: Clock;
  /** Reload attempts so far; wait on it after writing a fixture file. */
  reloads(): number;
  /** What is loaded, as the line after the listening line says it. */
  summary(): string;
  /** Closes at once: open connections are dropped. */
  close(): Promise<void>;
  /**
   * Stops accepting, lets open streams finish for `graceMs` (default the `graceMs` option), then
   * ends each still open with its style's in-stream error event, and closes.
   */
  shutdown(graceMs?: number): Promise<void>;
}

const LEVELS: Record<LogLevel, number> = { silent: 0, error: 1, info: 2, debug: 3 };

/** `./fixtures` (or `./scenarios`) when the working directory has one, else the package's own. */
export function defaultDir(name: 'fixtures' | 'scenarios'): string {
  const local = resolve(name);
  return existsSync(local) ? local : resolve(PACKAGE_ROOT, name);
}

/** The directories given (one or several), else the default one. */
export function dirsOf(given: string | readonly string[] | undefined, name: 'fixtures' | 'scenarios'): string[] {
  const list = typeof given === 'string' ? [given] : (given ?? []);
  return list.length > 0 ? list.map((dir) => resolve(dir)) : [defaultDir(name)];
}

/** A size in bytes from a number or a string such as `50mb`; `what` names it in the error. */
function parseSize(limit: number | string | undefined, fallback: number, what: string, example: string): number {
  if (limit === undefined) return fallback;
  const parsed = typeof limit === 'number' ? limit : bytes.parse(limit);
  if (parsed === null || !Number.isFinite(parsed) || parsed <= 0) throw new Error(`${what} must be a size such as ${example}, got "${limit}"`);
  return parsed;
}

export function parseBodyLimit(limit: number | string | undefined): number {
  return parseSize(limit, 50 * 1024 * 1024, 'body limit', '50mb');
}

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : [value].flat());

/** What the kernel allows at most (net.core.somaxconn is 4096 on current Linux). */
const LISTEN_BACKLOG = 4096;

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  // An empty token would read as "no token" and leave the admin API open without a word.
  if (options.adminToken === '') throw new Error('--admin-token must not be empty: give a token, or leave the flag out');
  const host = options.host ?? '127.0.0.1';
  const access = adminAccess(host, list(options.adminHost), list(options.adminOrigin));
  const clock = createClock(options.clock ?? 'real');
  const level = LEVELS[options.logLevel ?? 'silent'];
  const logger = options.logger ?? printLine;
  const logs: Mock['logs'] = (lineLevel) => LEVELS[lineLevel] <= level;
  const log: Mock['log'] = (lineLevel, line) => {
    if (logs(lineLevel)) logger(timed(line));
  };
  const events = new EventHub();
  const upstream = upstreamOf(options.upstream, options.record, options.upstreamKey ?? process.env.UPSTREAM_API_KEY, [...access.origins]);
  if (options.drift && !upstream) throw new Error('--drift compares what --upstream answers: give --upstream URL too.');
  const store = new ConfigStore({
    fixturesDirs: [...dirsOf(options.fixtures, 'fixtures'), ...(upstream?.record ? [upstream.record] : [])],
    scenariosDirs: dirsOf(options.scenarios, 'scenarios'),
    // Health reports when files were read, in wall time, whatever the mock clock says.
    now: () => Date.now(),
    onReload: (problems) => {
      if (problems.length === 0) log('info', 'configuration reloaded');
      else for (const problem of problems) log('error', `${formatProblem(problem)} (last good configuration kept)`);
      events.publish('reload', { reloads: store.reloads, status: problems.length ? 'degraded' : 'ok', errors: problems });
    },
  });
  const journalMax = options.journalMax ?? 1000;
  const budget = new MemoryBudget(
    parseSize(options.memoryLimit, DEFAULT_MEMORY_LIMIT, 'memory limit', '128mb'),
    parseSize(options.sessionMemoryLimit, DEFAULT_SESSION_MEMORY_LIMIT, 'session memory limit', '16mb'),
  );
  const streams = new OpenStreams();
  const mock: Mock = {
    metrics: new Metrics({
      openStreams: () => streams.size,
      memory: () => mock.sessions.memory,
      reloads: () => store.reloads,
      failedReloads: () => store.failedReloads,
    }),
    store,
    sessions: new Sessions(journalMax, clock.now, undefined, budget),
    clock,
    events,
    requestCount: 0,
    ...(options.drift && { drift: new DriftLog() }),
    log,
    logs,
    options: {
      seed: options.seed ?? 0,
      latency: options.latency ?? 'none',
      strict: options.strict ?? false,
      journalMax,
      bodyLimitBytes: parseBodyLimit(options.bodyLimit),
      adminToken: options.adminToken,
      logLevel: options.logLevel ?? 'silent',
      upstream,
    },
  };
  // The watcher scans the directories while the socket opens: start-up waits for the slower one.
  const watching = options.watch ?? true ? store.watch() : Promise.resolve();
  const endpoint = options.otlpEndpoint ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const tracing = endpoint ? new Tracing(endpoint) : undefined;
  const server = createServer(createApp(mock, access, streams, tracing).callback());
  server.on('clientError', answerClientError);
  keepConnections(server);
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
    await Promise.all([watching, listening]);
  } catch (error) {
    await store.close();
    throw error;
  }
  // The tokenizer's tables load two turns of the event loop from now: after whatever the caller
  // prints on listening has gone out (the log sink writes at the end of a turn), before the
  // first request would wait for them.
  // prom-client likewise, after the tokenizer: what is answered before it loads waits in a queue.
  setImmediate(() => setImmediate(() => {
    loadTokenizer();
    setImmediate(() => {
      void mock.metrics.load();
      tracing?.load().catch((error: Error) => log('error', `tracing could not start: ${error.message}`));
    });
  }));
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const close = async (): Promise<void> => {
    await store.close();
    await tracing?.shutdown();
    await new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
  };
  return {
    ...oracle(inProcessAdmin(mock)),
    url,
    port,
    clock,
    reloads: () => store.reloads,
    summary: () => `${summarize(store.current)}; inspector ${url}/__admin/ui`,
    close,
    shutdown: async (graceMs = options.graceMs ?? 5000) => {
      server.close();
      server.closeIdleConnections();
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
