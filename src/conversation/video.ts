// The neutral view of a video task at one moment: what both video wire forms (the OpenAI video
// object and the gateway's task wrapper) are encoded from.

/** How a task moves: `time`, on the clock; `polls`, each status read adds `step` points. */
export interface VideoTiming {
  queuedMs: number;
  runMs: number;
  progressBy: 'time' | 'polls';
  step: number;
}

export type VideoStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

export interface VideoError {
  code: string;
  message: string;
}

/** Where a task stands, computed from the task and the clock. */
export interface VideoProgress {
  status: VideoStatus;
  /** 0..100 */
  progress: number;
  /** ms on the mock clock; null until the task left the queue. */
  startedMs: number | null;
  /** ms on the mock clock; null until the task completed or failed. */
  finishedMs: number | null;
  error: VideoError | null;
}

/** What a task was asked for, fixed at creation. */
export interface VideoOrder {
  id: string;
  model: string;
  prompt: string;
  createdMs: number;
  seconds: string;
  size: string;
  metadata?: Record<string, unknown>;
  /** The video a remix was made from. */
  remixedFromId?: string;
}

export interface VideoSnapshot extends VideoProgress, VideoOrder {}
