// Where a video task stands: a pure function of the task (its timing, its failure point, the
// status reads it has had) and the time on the mock clock. Nothing here keeps timers, so
// stepping the clock or reading the status is all it takes to move a task.
import type { VideoProgress, VideoSnapshot } from '../conversation/video.js';
import type { VideoTask } from '../state/video-task.js';

/** How long a finished video stays downloadable. */
export const EXPIRES_AFTER_MS = 24 * 3600 * 1000;

function terminal(task: VideoTask, finishedMs: number, startedMs: number): VideoProgress {
  const failure = task.failure;
  if (failure) return { status: 'failed', progress: failure.atProgress, startedMs, finishedMs, error: failure.error };
  return { status: 'completed', progress: 100, startedMs, finishedMs, error: null };
}

function byTime(task: VideoTask, now: number): VideoProgress {
  const { queuedMs, runMs } = task.timing;
  const startedMs = task.createdMs + queuedMs;
  if (now < startedMs) return { status: 'queued', progress: 0, startedMs: null, finishedMs: null, error: null };
  const end = task.failure?.atProgress ?? 100;
  const finishedMs = startedMs + Math.round((runMs * end) / 100);
  if (now >= finishedMs) return terminal(task, finishedMs, startedMs);
  const progress = Math.min(end, Math.floor(((now - startedMs) / runMs) * 100));
  return { status: 'in_progress', progress, startedMs, finishedMs: null, error: null };
}

function byPolls(task: VideoTask, now: number): VideoProgress {
  if (task.polls === 0) return { status: 'queued', progress: 0, startedMs: null, finishedMs: null, error: null };
  const progress = Math.min(100, task.polls * task.timing.step);
  const startedMs = task.startedMs ?? now;
  if (progress >= (task.failure?.atProgress ?? 100)) return terminal(task, task.finishedMs ?? now, startedMs);
  return { status: 'in_progress', progress, startedMs, finishedMs: null, error: null };
}

export function videoProgress(task: VideoTask, now: number): VideoProgress {
  return task.timing.progressBy === 'polls' ? byPolls(task, now) : byTime(task, now);
}

export function videoSnapshot(task: VideoTask, now: number): VideoSnapshot {
  const { id, model, prompt, createdMs, seconds, size, metadata, remixedFromId } = task;
  return { id, model, prompt, createdMs, seconds, size, metadata, remixedFromId, ...videoProgress(task, now) };
}

/**
 * A status read: poll-driven tasks advance one step and remember when they started and
 * finished, so later reads report the same times.
 */
export function recordPoll(task: VideoTask, now: number): VideoSnapshot {
  if (task.timing.progressBy === 'polls' && videoProgress(task, now).finishedMs === null) task.polls++;
  const snapshot = videoSnapshot(task, now);
  if (snapshot.startedMs !== null) task.startedMs ??= snapshot.startedMs;
  if (snapshot.finishedMs !== null) task.finishedMs ??= snapshot.finishedMs;
  return snapshot;
}
