// The OpenAI form of a video task (WIRE.md section 9): the video object, its cursor page and the
// deletion receipt. Times are Unix milliseconds, as the gateway description says.
import type { VideoSnapshot } from '../../conversation/video.js';

export function videoObject(video: VideoSnapshot, expiresAfterMs: number): Record<string, unknown> {
  const completed = video.status === 'completed' ? video.finishedMs : null;
  return {
    id: video.id,
    object: 'video',
    model: video.model,
    status: video.status,
    progress: video.progress,
    created_at: video.createdMs,
    completed_at: completed,
    expires_at: completed === null ? null : completed + expiresAfterMs,
    prompt: video.prompt,
    seconds: video.seconds,
    size: video.size,
    remixed_from_video_id: video.remixedFromId ?? null,
    error: video.error,
    ...(video.metadata ? { metadata: video.metadata } : {}),
  };
}

export function videoList(videos: Array<Record<string, unknown>>, hasMore: boolean): unknown {
  return {
    object: 'list',
    data: videos,
    first_id: (videos[0]?.id as string | undefined) ?? null,
    last_id: (videos.at(-1)?.id as string | undefined) ?? null,
    has_more: hasMore,
  };
}

export function videoDeleted(id: string): unknown {
  return { id, object: 'video.deleted', deleted: true };
}
