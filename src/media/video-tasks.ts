// Video tasks: the timing a new task gets, how it fails, and the cursor pages `GET /v1/videos`
// reads from a session's tasks.
import type { ErrorCode } from '../conversation/error-codes.js';
import type { VideoError, VideoSnapshot, VideoTiming } from '../conversation/video.js';
import type { VideoTask } from '../state/video-task.js';
import { videoSnapshot } from './progression.js';

/** Without a fixture's or a model's timing a task waits 2 s in the queue and runs 10 s. */
export const DEFAULT_TIMING: VideoTiming = { queuedMs: 2000, runMs: 10_000, progressBy: 'time', step: 25 };

export const DEFAULT_FAILURE: VideoError = {
  code: 'video_generation_failed' satisfies ErrorCode,
  message: 'The video could not be generated.',
};

/** Field by field: the fixture's timing over the model's over the default. */
export function resolveTiming(...layers: Array<Partial<VideoTiming> | undefined>): VideoTiming {
  const timing = { ...DEFAULT_TIMING };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {}) as Array<[keyof VideoTiming, never]>) {
      if (value !== undefined) timing[key] = value;
    }
  }
  return timing;
}

/** A fixture that names a failure point or an error fails there (at 0 when only the error is given). */
export function failureOf(failAt: number | undefined, error: VideoError | undefined): VideoTask['failure'] {
  if (failAt === undefined && error === undefined) return undefined;
  return { atProgress: failAt ?? 0, error: error ?? DEFAULT_FAILURE };
}

export interface PageQuery {
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
}

export interface VideoPage {
  items: VideoSnapshot[];
  hasMore: boolean;
}

/**
 * Tasks in creation order (`asc`) or newest first (`desc`), starting after the cursor task.
 * Returns undefined when the cursor names no task of the session.
 */
export function videoPage(tasks: Iterable<VideoTask>, now: number, query: PageQuery): VideoPage | undefined {
  const ordered = [...tasks];
  if (query.order === 'desc') ordered.reverse();
  let start = 0;
  if (query.after !== undefined) {
    const index = ordered.findIndex((task) => task.id === query.after);
    if (index < 0) return undefined;
    start = index + 1;
  }
  const slice = ordered.slice(start, start + query.limit);
  return { items: slice.map((task) => videoSnapshot(task, now)), hasMore: start + query.limit < ordered.length };
}
