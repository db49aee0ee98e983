// Creating and finding video tasks, shared by the OpenAI form (`/v1/videos`) and the gateway's
// task form (`/v1/video/generations`): both read and write the same tasks of the session.
import type { Context } from 'koa';
import { invalid, MockError } from '../conversation/errors.js';
import { firstMatch } from '../conversation/fixture.js';
import { promptSubject } from '../conversation/subject.js';
import { resolveInside } from '../config/files.js';
import type { VideoFixtureSpec } from '../config/schema.js';
import type { Compiled } from '../config/types.js';
import { sniffImageType } from '../media/png.js';
import { videoSize } from '../media/sizes.js';
import { announceTaskChanges } from '../media/task-events.js';
import { failureOf, resolveTiming } from '../media/video-tasks.js';
import { applyScenario, type FaultSpec } from '../scenarios/apply.js';
import { MAX_TASKS, putBounded } from '../state/session.js';
import type { TaskTiming, VideoTask } from '../state/video-task.js';
import { decodeVideoRequest, type Sourced, type VideoRequest } from '../styles/videos/decode.js';
import { nextId } from './request.js';
import type { Mock, MockState } from './context.js';
import { mediaModel } from './media-model.js';
import { bodyOf, takeUploads, type Upload } from './uploads.js';

/** The frame size, naming the field (or its `metadata.` copy) whose value is refused. */
function frameSize(request: VideoRequest): string {
  const attempt = (field: Sourced | undefined, make: () => string): string => {
    try {
      return make();
    } catch (error) {
      throw invalid(`Invalid value for '${field?.field}': ${(error as Error).message}.`, field?.field, 'invalid_value');
    }
  };
  const { size, ratio, resolution } = request;
  if (size) return attempt(size, () => videoSize(size.value).size);
  attempt(ratio, () => videoSize(undefined, ratio?.value).size);
  return attempt(resolution, () => videoSize(undefined, ratio?.value, resolution?.value).size);
}

/** A reference upload must be a picture or an MP4/QuickTime clip. */
function checkReference(uploads: Upload[] | undefined): void {
  for (const upload of uploads ?? []) {
    const clip = upload.data.toString('latin1', 4, 8) === 'ftyp';
    if (!clip && !sniffImageType(upload.data)) {
      throw invalid(
        `Invalid file '${upload.filename}' for 'input_reference': expected a PNG, JPEG, WebP or GIF image or an MP4 video.`,
        'input_reference',
        'invalid_file',
      );
    }
  }
}

function fixtureTiming(fixture: Compiled<VideoFixtureSpec> | undefined): Partial<TaskTiming> | undefined {
  const timing = fixture?.spec.timing;
  return timing && { queuedMs: timing.queued_ms, runMs: timing.run_ms, progressBy: timing.progress_by, step: timing.step };
}

function fixtureFile(mock: Mock, fixture: Compiled<VideoFixtureSpec>, file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    return resolveInside(mock.store.current.fixturesDir, file);
  } catch (error) {
    throw new MockError('server_error', `The videos fixture "${fixture.name}" names ${file}: ${(error as Error).message}.`);
  }
}

export interface CreatedTask {
  task: VideoTask;
  fault: FaultSpec | undefined;
}

/** Decodes, checks and stores a new task; `prefix` is `video` (OpenAI form) or `task` (gateway form). */
export async function createTask(mock: Mock, ctx: Context, prefix: 'video' | 'task'): Promise<CreatedTask> {
  const state = ctx.state as MockState;
  const uploads = takeUploads(ctx);
  const request = decodeVideoRequest(bodyOf(ctx));
  checkReference(uploads.get('input_reference'));
  const model = mediaModel(mock, request.model, 'video');
  state.notes.model = model.id;
  const size = frameSize(request);
  const subject = promptSubject(model.id, request.prompt, ctx.headers as Record<string, string>);
  const outcome = await applyScenario(mock, ctx, subject);
  const fixture = firstMatch(mock.store.current.videos, subject)?.fixture;
  state.notes.fixture = fixture?.name ?? null;
  const reply = fixture?.spec.reply;
  const task: VideoTask = {
    id: `${prefix}_${nextId(mock, state.session)}`,
    model: model.id,
    prompt: request.prompt,
    createdMs: mock.clock.now(),
    seconds: request.seconds,
    size,
    metadata: request.metadata,
    timing: resolveTiming(model.timing, fixtureTiming(fixture)),
    failure: failureOf(reply?.fail_at, reply?.error),
    files: fixture ? { video: fixtureFile(mock, fixture, reply?.file), thumbnail: fixtureFile(mock, fixture, reply?.thumbnail) } : {},
    fixture: fixture?.name,
    polls: 0,
  };
  putBounded(state.session.tasks, task.id, task, MAX_TASKS);
  announceTaskChanges(mock.events, mock.sessions, mock.clock.now());
  return { task, fault: outcome.fault };
}

/** The session's task, or the error the caller's form uses for an unknown id. */
export function findTask(ctx: Context, id: string, unknown: (id: string) => MockError): VideoTask {
  const state = ctx.state as MockState;
  const task = state.session.tasks.get(id);
  if (!task) throw unknown(id);
  state.notes.model = task.model;
  return task;
}

/** The scenario step for a request about an existing task. */
export async function taskScenario(mock: Mock, ctx: Context, task: VideoTask | undefined): Promise<FaultSpec | undefined> {
  const subject = promptSubject(task?.model ?? '', task?.prompt ?? '', ctx.headers as Record<string, string>);
  return (await applyScenario(mock, ctx, subject)).fault;
}
