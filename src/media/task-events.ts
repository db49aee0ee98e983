// Video tasks and batches for watchers: every task of every session as it stands now, and a
// `task` event for each task whose status changed since it was last announced. Tasks move with
// the clock, not with a timer, so changes are looked for where time or tasks change: a new task,
// a clock move, a batch brought up to the clock, and a listing.
import type { VideoSnapshot } from '../conversation/video.js';
import type { Batch } from '../conversation/batch.js';
import type { EventHub } from '../state/events.js';
import type { Sessions } from '../state/sessions.js';
import type { VideoTask } from '../state/video-task.js';
import { batchState } from './batch-lifecycle.js';
import { videoSnapshot } from './progression.js';

interface Placed {
  session: string;
  fixture: string | null;
}

/** A batch as the task panel shows it: `model` is its endpoint, `prompt` says how many requests it holds. */
export interface BatchSnapshot {
  kind: 'batch';
  vendor: Batch['vendor'];
  id: string;
  model: string;
  prompt: string;
  createdMs: number;
  status: string;
  progress: number;
  startedMs: number | null;
  finishedMs: number | null;
  error: null;
}

export type SessionTask = Placed & ((VideoSnapshot & { kind: 'video' }) | BatchSnapshot);

function batchSnapshot(batch: Batch, now: number): BatchSnapshot {
  const state = batchState(batch, now);
  const { since } = state;
  const total = batch.lines.length;
  return {
    kind: 'batch',
    vendor: batch.vendor,
    id: batch.id,
    model: batch.endpoint,
    prompt: `${total} request${total === 1 ? '' : 's'}`,
    createdMs: batch.createdMs,
    status: state.status,
    progress: total === 0 ? 0 : Math.floor((state.due / total) * 100),
    startedMs: since.in_progress ?? null,
    finishedMs: state.ended ? state.since[state.status]! : null,
    error: null,
  };
}

/** The status each task was last announced with; tasks are objects of one server, so the key is safe. */
const announced = new WeakMap<VideoTask | Batch, string>();

export function sessionTasks(sessions: Sessions, now: number): Array<{ task: VideoTask | Batch; snapshot: SessionTask }> {
  return sessions.all().flatMap((session) => [
    ...[...session.tasks.values()].map((task) => ({
      task,
      snapshot: { session: session.id, fixture: task.fixture ?? null, kind: 'video' as const, ...videoSnapshot(task, now) },
    })),
    ...[...session.batches.values()].map((batch) => ({ task: batch, snapshot: { session: session.id, fixture: batch.fixture, ...batchSnapshot(batch, now) } })),
  ]);
}

export function announceTaskChanges(events: EventHub, sessions: Sessions, now: number): SessionTask[] {
  const all = sessionTasks(sessions, now);
  for (const { task, snapshot } of all) {
    if (announced.get(task) === snapshot.status) continue;
    announced.set(task, snapshot.status);
    events.publish('task', snapshot);
  }
  return all.map(({ snapshot }) => snapshot);
}
