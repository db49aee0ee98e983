// The library entry: `startMockServer(options)` for tests and embedding, and the public types.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import bytes from 'bytes';
import { ConfigStore, formatProblem } from './config/store.js';
import { createApp } from './server/app.js';
import { answerClientError } from './server/client-error.js';
import type { LatencyMode, LogLevel, Mock } from './exchange/mock.js';
import { timed } from './log-time.js';
import { createClock, type Clock } from './state/clock.js';
import { EventHub } from './state/events.js';
import { Sessions } from './state/sessions.js';

export interface MockServerOptions {
  /** 0 (the default here) picks a free port. */
  port?: number;
  host?: string;
  fixtures?: string;
  scenarios?: string;
  seed?: number;
  /** Stream pacing; `none` (the default here) sends as fast as the socket takes it. */
  latency?: LatencyMode;
  /** `real`, `manual` or an ISO time. */
  clock?: string;
  strict?: boolean;
  journalMax?: number;
  /** Bytes, or a size such as `50mb`. */
  bodyLimit?: number | string;
  adminToken?: string;
  watch?: boolean;
  /** `silent` (the default here), `error`, `info` or `debug`. */
  logLevel?: LogLevel;
  /** Where log lines go; console.log by default. */
  logger?: (line: string) => void;
}

export interface MockServer {
  url: string;
  port: number;
  clock: Clock;
  /** Reload attempts so far; wait on it after writing a fixture file. */
  reloads(): number;
  close(): Promise<void>;
}

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const LEVELS: Record<LogLevel, number> = { silent: 0, error: 1, info: 2, debug: 3 };

/** `./fixtures` (or `./scenarios`) when the working directory has one, else the package's own. */
export function defaultDir(name: 'fixtures' | 'scenarios'): string {
  const local = resolve(name);
  return existsSync(local) ? local : resolve(PACKAGE_ROOT, name);
}

export function parseBodyLimit(limit: number | string | undefined): number {
  if (limit === undefined) return 50 * 1024 * 1024;
  const parsed = typeof limit === 'number' ? limit : bytes.parse(limit);
  if (parsed === null || !Number.isFinite(parsed) || parsed <= 0) throw new Error(`body limit must be a size such as 50mb, got "${limit}"`);
  return parsed;
}

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const clock = createClock(options.clock ?? 'real');
  const level = LEVELS[options.logLevel ?? 'silent'];
  const logger = options.logger ?? ((line: string) => console.log(line));
  const logs: Mock['logs'] = (lineLevel) => LEVELS[lineLevel] <= level;
  const log: Mock['log'] = (lineLevel, line) => {
    if (logs(lineLevel)) logger(timed(line));
  };
  const events = new EventHub();
  const store = new ConfigStore({
    fixturesDir: resolve(options.fixtures ?? defaultDir('fixtures')),
    scenariosDir: resolve(options.scenarios ?? defaultDir('scenarios')),
    // Health reports when files were read, in wall time, whatever the mock clock says.
    now: () => Date.now(),
    onReload: (problems) => {
      if (problems.length === 0) log('info', 'configuration reloaded');
      else for (const problem of problems) log('error', `${formatProblem(problem)} (last good configuration kept)`);
      events.publish('reload', { reloads: store.reloads, status: problems.length ? 'degraded' : 'ok', errors: problems });
    },
  });
  const journalMax = options.journalMax ?? 1000;
  const mock: Mock = {
    store,
    sessions: new Sessions(journalMax, clock.now),
    clock,
    events,
    requestCount: 0,
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
    },
  };
  // The watcher scans the directories while the socket opens: start-up waits for the slower one.
  const watching = options.watch ?? true ? store.watch() : Promise.resolve();
  const server = createServer(createApp(mock).callback());
  server.on('clientError', answerClientError);
  const host = options.host ?? '127.0.0.1';
  const listening = new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, host, () => done());
  });
  try {
    await Promise.all([watching, listening]);
  } catch (error) {
    await store.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    port,
    clock,
    reloads: () => store.reloads,
    close: async () => {
      await store.close();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}

export type { LatencyMode, LogLevel } from './exchange/mock.js';
export { ConfigLoadError } from './config/store.js';
