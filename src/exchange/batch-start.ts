// A new batch of either vendor: its id, its timing (a `batches:` fixture's, else the default), the
// client its lines are sent as, and its place in the session's memory.
import { COMPLETION_WINDOW_MS, defaultTiming } from '../media/batch-lifecycle.js';
import { announceTaskChanges } from '../media/task-events.js';
import type { BatchFixture } from '../config/types.js';
import type { Batch, BatchLine, BatchTiming } from '../conversation/batch.js';
import { keepBatch, makeRoom } from '../state/pinned.js';
import { LATEST_TIME } from '../state/clock.js';
import type { Session } from '../state/session.js';
import { batchBytes } from './batch-run.js';
import type { Exchange } from './exchange.js';
import type { Mock } from './mock.js';
import { nextId } from './request.js';

/** The first `batches:` entry whose endpoint and metadata (every key and value it names) the batch has. */
function matching(fixtures: readonly BatchFixture[], endpoint: string, metadata: Record<string, string> | null): BatchFixture | undefined {
  return fixtures.find(({ spec: { match } }) => {
    if (match?.endpoint !== undefined && match.endpoint !== endpoint) return false;
    return Object.entries(match?.metadata ?? {}).every(([key, value]) => metadata !== null && Object.hasOwn(metadata, key) && metadata[key] === value);
  });
}

function timingOf(fixture: BatchFixture | undefined, lines: number): BatchTiming {
  const timing = defaultTiming(lines);
  const spec = fixture?.spec.timing;
  return {
    validatingMs: spec?.validating_ms ?? timing.validatingMs,
    inProgressMs: spec?.in_progress_ms ?? timing.inProgressMs,
    finalizingMs: spec?.finalizing_ms ?? timing.finalizingMs,
  };
}

/** Headers a line cannot carry as its own: they described the request that created the batch. */
const BODY_HEADERS = new Set(['content-length', 'content-type', 'transfer-encoding', 'content-encoding']);

export interface BatchOrder {
  vendor: Batch['vendor'];
  endpoint: string;
  inputFileId: string | null;
  metadata: Record<string, string> | null;
  lines: BatchLine[];
  prefix: 'batch_' | 'msgbatch_';
}

export function newBatch(mock: Mock, exchange: Exchange, order: BatchOrder): Batch {
  const fixture = matching(mock.store.current.batches, order.endpoint, order.metadata);
  const headers = Object.fromEntries(Object.entries(exchange.headers).filter(([name]) => !BODY_HEADERS.has(name)));
  const now = mock.clock.now();
  return {
    id: `${order.prefix}${nextId(mock, exchange.session)}`,
    vendor: order.vendor,
    endpoint: order.endpoint,
    inputFileId: order.inputFileId,
    metadata: order.metadata,
    createdMs: now,
    // Past the latest time a date holds, the batch object could not be written.
    expiresAtMs: Math.min(now + COMPLETION_WINDOW_MS, LATEST_TIME),
    timing: timingOf(fixture, order.lines.length),
    fixture: fixture?.name ?? null,
    lines: order.lines,
    invalid: [],
    sender: { headers: { ...headers, 'content-type': 'application/json' }, caller: exchange.caller, origin: exchange.origin, upstream: exchange.upstream },
    answers: [],
    closed: false,
    upToMs: now,
  };
}

/** Keeps the batch in its session (a 413 when it does not fit) and tells watchers. */
export function startBatch(mock: Mock, session: Session, batch: Batch): void {
  const bytes = batchBytes(batch);
  makeRoom(session, bytes, 'The batch');
  keepBatch(session, batch, bytes);
  announceTaskChanges(mock.events, mock.sessions, mock.clock.now());
}
