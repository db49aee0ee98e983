// A video task as stored in its session. Everything it needs to progress and to serve its media
// is copied in at creation, so a config reload never changes a task already running.
import type { VideoError, VideoOrder, VideoTiming } from '../conversation/video.js';

export interface VideoTask extends VideoOrder {
  timing: VideoTiming;
  /** The progress at which the task fails, and the error it then reports. */
  failure?: { atProgress: number; error: VideoError };
  /** Absolute paths of the media served once completed; unset means the bundled samples. */
  /** A fixture's files (absolute, resolved at creation) and the directory they are confined to. */
  files: { root?: string; video?: string; thumbnail?: string };
  /** The `videos:` fixture that shaped the task. */
  fixture?: string;
  /** Status reads so far (they drive `progress_by: polls`). */
  polls: number;
  /** Transition times seen by status reads, for poll-driven tasks (time-driven ones compute them). */
  startedMs?: number;
  finishedMs?: number;
}
