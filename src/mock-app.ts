// The mock assembled from its options, not yet on a socket: its state (configuration, sessions,
// clock, events), the listeners of what it serves, and its request listener (server/app.ts).
// `startMockServer` listens with it; the drift command asks it in process, without HTTP between
// the two.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import bytes from 'bytes';
import { ConfigStore, formatProblem } from './config/store.js';
import type { LoadCache } from './config/load.js';
import { adminAccess } from './server/admin-guard.js';
import { createListener } from './server/listener.js';
import { OpenStreams } from './server/open-streams.js';
import type { DualListener } from './server/shared-port.js';
import type { Tracing } from './server/tracing.js';
import type { LatencyMode, LogLevel, Mock } from './exchange/mock.js';
import { printLine } from './log-sink.js';
import { timed } from './log-time.js';
import { createClock } from './state/clock.js';
import { EventHub } from './state/events.js';
import { upstreamOf } from './exchange/upstream/options.js';
import { DEFAULT_MEMORY_LIMIT, DEFAULT_SESSION_MEMORY_LIMIT, MemoryBudget } from './state/memory.js';
import { Metrics } from './state/metrics.js';
import { announceServed, countServed, journalServed, servedTo } from './state/served.js';
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
  /** With `upstream`: how long a batch line's forwarded request may take, in ms (default 60000). */
  upstreamTimeoutMs?: number;
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
  /** A PEM certificate chain to serve TLS with, instead of the local CA's leaf (with `tlsKey`). */
  tlsCert?: string;
  /** The key of `tlsCert`. */
  tlsKey?: string;
  /** Where the local CA is kept (default `$XDG_DATA_HOME/model-gateway-mock`, else `~/.local/share/model-gateway-mock`). */
  dataDir?: string;
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

/** Who hears of every answer: the journal, the inspector's events, metrics, and spans where a collector is set. */
export function serving(events: EventHub, metrics: Metrics, tracing?: Tracing): Mock['served'] {
  return servedTo([journalServed, announceServed(events), countServed(metrics), ...(tracing ? [tracing.served] : [])]);
}

export interface AssembledMock {
  mock: Mock;
  streams: OpenStreams;
  /** Node's request listener (server/app.ts), to hand to an HTTP server or to inject requests into. */
  listener: DualListener;
}

/**
 * Builds the mock from `options`: loads the configuration (throwing ConfigLoadError on a bad one),
 * makes its state and app. `cache` keeps each file's parse for the caller to read too.
 */
export function assembleMock(options: MockServerOptions, parts: { tracing?: Tracing; cache?: LoadCache } = {}): AssembledMock {
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
  const upstream = upstreamOf(options.upstream, options.record, options.upstreamKey ?? process.env.UPSTREAM_API_KEY, [...access.origins], options.upstreamTimeoutMs);
  if (options.drift && !upstream) throw new Error('--drift compares what --upstream answers: give --upstream URL too.');
  const store = new ConfigStore({
    fixturesDirs: [...dirsOf(options.fixtures, 'fixtures'), ...(upstream?.record ? [upstream.record] : [])],
    scenariosDirs: dirsOf(options.scenarios, 'scenarios'),
    // Health reports when files were read, in wall time, whatever the mock clock says.
    now: () => Date.now(),
    cache: parts.cache,
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
  const metrics = new Metrics({
    openStreams: () => streams.size,
    memory: () => mock.sessions.memory,
    reloads: () => store.reloads,
    failedReloads: () => store.failedReloads,
  });
  const mock: Mock = {
    metrics,
    served: serving(events, metrics, parts.tracing),
    store,
    sessions: new Sessions(journalMax, clock.now, undefined, budget),
    clock,
    events,
    requestCount: 0,
    ...(options.drift && { drift: new DriftLog() }),
    ...(parts.tracing && { otlp: parts.tracing.health }),
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
  return { mock, streams, listener: createListener(mock, access, streams) };
}
