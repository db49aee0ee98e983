// What every route handler can reach: the live config, the sessions, the clock and the options.
// Passed explicitly (no globals), so several servers can run in one test process.
import type { Envelope } from '../conversation/errors.js';
import type { ConfigStore } from '../config/store.js';
import type { Clock } from '../state/clock.js';
import type { EventHub } from '../state/events.js';
import type { NearMiss } from '../state/journal.js';
import type { Session } from '../state/session.js';
import type { Sessions } from '../state/sessions.js';

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
}

export interface Mock {
  store: ConfigStore;
  sessions: Sessions;
  clock: Clock;
  /** What happens, for live watchers (the inspector's event stream). */
  events: EventHub;
  options: ServerOptions;
  log(level: Exclude<LogLevel, 'silent'>, line: string): void;
  /** Whether lines of this level are written, so a silent mock does not build them. */
  logs(level: Exclude<LogLevel, 'silent'>): boolean;
  /** Monotonic counter behind request ids. */
  requestCount: number;
}

/** What a handler records about a request for the journal and the log line. */
export interface RequestNotes {
  style: string | null;
  model: string | null;
  fixture: string | null;
  scenario: string | null;
  nearMiss: NearMiss | null;
}

/** Koa `ctx.state` as the mock uses it. */
export interface MockState {
  session: Session;
  envelope: Envelope;
  notes: RequestNotes;
  requestId: string;
  /** Set by the auth step: the key's group, when keys are configured. */
  group?: string;
  keyScenario?: string;
  /** Set by the body parser: about the size of the parsed body in characters of JSON. */
  bodySize?: number;
}
