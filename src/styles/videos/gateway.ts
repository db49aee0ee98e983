// The gateway's own task form (WIRE.md section 10): `GET /v1/video/generations/{task_id}` wraps
// the task as `{code, message, data}` with upper-case statuses and progress as "30%", and its
// errors use the same wrapper.
import type { ErrorCode } from '../../conversation/error-codes.js';
import type { Envelope, ErrorKind } from '../../conversation/errors.js';
import type { VideoSnapshot, VideoStatus } from '../../conversation/video.js';
import { answer, statusOf } from '../envelope.js';
import { openaiRateLimitHeaders } from '../openai-envelope.js';

const STATUS: Record<VideoStatus, string> = {
  queued: 'QUEUED',
  in_progress: 'IN_PROGRESS',
  completed: 'SUCCESS',
  failed: 'FAILURE',
};

/** The gateway counts task times in Unix seconds, 0 while a time is not reached yet. */
function seconds(ms: number | null): number {
  return ms === null ? 0 : Math.floor(ms / 1000);
}

export function taskWrapper(video: VideoSnapshot, resultUrl: string): unknown {
  return {
    code: 'success',
    message: '',
    data: {
      task_id: video.id,
      status: STATUS[video.status],
      progress: `${video.progress}%`,
      result_url: video.status === 'completed' ? resultUrl : '',
      fail_reason: video.error?.message ?? '',
      submit_time: seconds(video.createdMs),
      start_time: seconds(video.startedMs),
      finish_time: seconds(video.finishedMs),
    },
  };
}

// Without a code of its own, an error carries its kind as its code, as the gateway's do.
const CODES: Partial<Record<ErrorKind, ErrorCode>> = {
  unauthorized: 'invalid_api_key',
  rate_limit: 'rate_limit_exceeded',
};

export const taskEnvelope: Envelope = (error) =>
  answer(
    error,
    statusOf(error),
    { code: error.options.code ?? CODES[error.kind] ?? error.kind, message: error.message, data: null },
    openaiRateLimitHeaders(error),
  );
