// What every operation can reach: the live config, the sessions, the clock and the options.
// Passed explicitly (no globals), so several servers can run in one test process.
import type { ConfigStore } from '../config/store.js';
import type { Clock } from '../state/clock.js';
import type { DriftLog } from './upstream/drift-log.js';
import type { EventHub } from '../state/events.js';
import type { Metrics } from '../state/metrics.js';
import type { ServedEvent } from '../state/served.js';
import type { Sessions } from '../state/sessions.js';
import type { Upstream } from '../conversation/upstream.js';

export type LatencyMode = 'realistic' | 'none';
export type LogLevel = 'silent' | 'error' | 'info' | 'debug';

export interface ServerOptions {
  seed: number;
  latency: LatencyMode;
  strict: boolean;
  journalMax: number;
  bodyLimitBytes: number;
  adminToken: string | undefined;
  logLevel: LogLevel;
  upstream: Upstream | undefined;
}

export interface Mock {
  store: ConfigStore;
  sessions: Sessions;
  clock: Clock;
  /** What happens, for live watchers (the inspector's event stream). */
  events: EventHub;
  options: ServerOptions;
  /** Counts what was answered, for `GET /__admin/metrics`. */
  metrics: Metrics;
  /** Every answer ends here, once: the journal, the events, metrics and spans hear of it. */
  served(event: ServedEvent): void;
  log(level: Exclude<LogLevel, 'silent'>, line: string): void;
  /** Whether lines of this level are written, so a silent mock does not build them. */
  logs(level: Exclude<LogLevel, 'silent'>): boolean;
  /** With `--upstream --drift`: where the shapes of forwarded answers and the mock's own differed. */
  drift?: DriftLog;
  /** Monotonic counter behind request ids. */
  requestCount: number;
  /** With `--otlp-endpoint`: the exporter's state, for health. */
  otlp?: { endpoint: string; status: 'ok' | 'failing'; last_error: string | null };
}
