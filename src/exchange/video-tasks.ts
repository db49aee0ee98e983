// Creating and finding video tasks, shared by the OpenAI form (`/v1/videos`) and the gateway's
// task form (`/v1/video/generations`): both read and write the same tasks of the session.
import { invalid, type MockError } from '../conversation/errors.js';
import { firstMatch } from '../conversation/fixture.js';
import { promptSubject } from '../conversation/subject.js';
import type { ModelEntry } from '../config/types.js';
import { videoSize } from '../media/sizes.js';
import { checkReference } from '../media/upload.js';
import { fixtureFiles, fixtureTiming } from '../media/video-order.js';
import { announceTaskChanges } from '../media/task-events.js';
import { failureOf, resolveTiming } from '../media/video-tasks.js';
import { keep } from '../state/session.js';
import type { VideoTask } from '../state/video-task.js';
import { decodeVideoRequest, type Sourced, type VideoRequest } from '../styles/videos/decode.js';
import type { VideoFixtureSpec } from '../config/schema.js';
import type { Compiled } from '../config/types.js';
import type { Exchange, Operation } from './exchange.js';
import type { Mock } from './mock.js';
import { mediaModel, nextId } from './request.js';
import { modelOperation, type Asked, type Built } from './operation.js';
import type { Recorder } from './upstream/relay.js';

type VideoFixture = Compiled<VideoFixtureSpec>;

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

/** What a new task is asked for, whether from a request body or from the video it derives from. */
export interface TaskOrder {
  model: ModelEntry;
  prompt: string;
  seconds: string;
  size: string;
  metadata?: Record<string, unknown>;
  remixedFromId?: string;
}

/** The order of a created task (`POST /v1/videos`, `/v1/video/generations`): decoded and checked. */
export function createdOrder(mock: Mock, exchange: Exchange): TaskOrder {
  const request = decodeVideoRequest(exchange.body);
  checkReference(exchange.uploads.get('input_reference'));
  const model = mediaModel(mock, request.model, 'video');
  return { model, prompt: request.prompt, seconds: request.seconds, size: frameSize(request), metadata: request.metadata };
}

interface AskedTask extends Asked {
  order: TaskOrder;
}

/** Stores the task the order asks for, shaped by its fixture; every task progresses the same way on the clock. */
function storeTask(mock: Mock, exchange: Exchange, prefix: 'video' | 'task', order: TaskOrder, fixture: VideoFixture | undefined): VideoTask {
  const reply = fixture?.spec.reply;
  const task: VideoTask = {
    id: `${prefix}_${nextId(mock, exchange.session)}`,
    model: order.model.id,
    prompt: order.prompt,
    createdMs: mock.clock.now(),
    seconds: order.seconds,
    size: order.size,
    metadata: order.metadata,
    ...(order.remixedFromId ? { remixedFromId: order.remixedFromId } : {}),
    timing: resolveTiming(order.model.timing, fixtureTiming(fixture)),
    failure: failureOf(reply?.fail_at, reply?.error),
    files: fixtureFiles(fixture),
    fixture: fixture?.name,
    polls: 0,
  };
  // The task copies the order (prompt, metadata): about the body's size, plus its own fields.
  keep(exchange.session, 'tasks', task.id, task, 1024 + exchange.bodySize);
  announceTaskChanges(mock.events, mock.sessions, mock.clock.now());
  return task;
}

export interface TaskCreation {
  /** `video` (OpenAI form) or `task` (gateway form). */
  prefix: 'video' | 'task';
  order(mock: Mock, exchange: Exchange): TaskOrder;
  /** What derives from this mock's own videos is never the upstream's to make. */
  derived?: boolean;
  recorder?(mock: Mock, exchange: Exchange, order: TaskOrder): Recorder | undefined;
  answer(mock: Mock, exchange: Exchange, task: VideoTask): Built;
}

/** A new task, however made (created, remixed, edited, extended): the template's steps. A scenario error step leaves no task behind. */
export function taskCreation(spec: TaskCreation): Operation {
  return modelOperation<{ model: null; order: TaskOrder }, AskedTask, VideoFixture>({
    read: (mock, exchange) => ({ model: null, order: spec.order(mock, exchange) }),
    ask: (_mock, exchange, { order }) => ({
      order,
      model: order.model.id,
      subject: promptSubject(order.model.id, order.prompt, exchange.headers),
      ...(spec.derived && { mockOnly: true }),
    }),
    find: (mock, _exchange, { subject }) => {
      const fixture = firstMatch(mock.store.current.videos, subject)?.fixture;
      return { found: fixture, notes: { fixture: fixture?.name ?? null } };
    },
    ...(spec.recorder && { recorder: (mock: Mock, exchange: Exchange, asked: AskedTask) => spec.recorder!(mock, exchange, asked.order) }),
    build: (mock, exchange, { order }, fixture) => {
      const task = storeTask(mock, exchange, spec.prefix, order, fixture);
      const built = spec.answer(mock, exchange, task);
      const seconds = Number(task.seconds);
      return Number.isFinite(seconds) ? { ...built, notes: { ...built.notes, metered: { seconds } } } : built;
    },
  });
}

export interface TaskQuestion {
  /** The task's id in the path. */
  id(exchange: Exchange): string;
  /** The error the form uses for an id it does not hold. */
  notFound(id: string): MockError;
  /** Checks the request's own fields first (a query parameter). */
  check?(exchange: Exchange): void;
  recorder?(mock: Mock, exchange: Exchange): Recorder | undefined;
  answer(mock: Mock, exchange: Exchange, task: VideoTask): Built | Promise<Built>;
}

/**
 * A request about an existing task: the session's task (scenarios match on its model and prompt),
 * or an id this mock does not hold, which the upstream may.
 */
export function taskQuestion(spec: TaskQuestion): Operation {
  return modelOperation<{ model: null; id: string }, Asked & { task?: VideoTask }, never>({
    held: true,
    read: (_mock, exchange) => {
      spec.check?.(exchange);
      return { model: null, id: spec.id(exchange) };
    },
    ask: (_mock, exchange, { id }) => {
      const task = exchange.session.tasks.get(id);
      if (!task) return { model: null, subject: promptSubject('', '', exchange.headers), unknown: spec.notFound(id) };
      return { task, model: task.model, subject: promptSubject(task.model, task.prompt, exchange.headers), mockOnly: true };
    },
    ...(spec.recorder && { recorder: (mock: Mock, exchange: Exchange) => spec.recorder!(mock, exchange) }),
    build: (mock, exchange, { task }) => spec.answer(mock, exchange, task!),
  });
}
