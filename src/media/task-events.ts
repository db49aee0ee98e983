// Video tasks for watchers: every task of every session as it stands now, and a `task` event
// for each task whose status changed since it was last announced. Time-driven tasks move with
// the clock, not with a timer, so changes are looked for where time or tasks change: a new
// task, a clock move, and a listing.
import type { VideoSnapshot } from '../conversation/video.js';
import type { EventHub } from '../state/events.js';
import type { Sessions } from '../state/sessions.js';
import type { VideoTask } from '../state/video-task.js';
import { videoSnapshot } from './progression.js';

export interface SessionTask extends VideoSnapshot {
  session: string;
  fixture: string | null;
}

/** The status each task was last announced with; tasks are objects of one server, so the key is safe. */
const announced = new WeakMap<VideoTask, string>();

export function sessionTasks(sessions: Sessions, now: number): Array<{ task: VideoTask; snapshot: SessionTask }> {
  return sessions.all().flatMap((session) =>
    [...session.tasks.values()].map((task) => ({
      task,
      snapshot: { session: session.id, fixture: task.fixture ?? null, ...videoSnapshot(task, now) },
    })),
  );
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
