// Creating and finding video tasks, shared by the OpenAI form (`/v1/videos`) and the gateway's
// task form (`/v1/video/generations`): both read and write the same tasks of the session.
import { invalid, type Envelope, type MockError } from '../conversation/errors.js';
import { firstMatch } from '../conversation/fixture.js';
import { promptSubject } from '../conversation/subject.js';
import type { ModelEntry } from '../config/types.js';
import { videoSize } from '../media/sizes.js';
import { checkReference } from '../media/upload.js';
import { fixtureFiles, fixtureTiming } from '../media/video-order.js';
import { announceTaskChanges } from '../media/task-events.js';
import { failureOf, resolveTiming } from '../media/video-tasks.js';
import type { ScenarioDecision } from '../scenarios/apply.js';
import { keep } from '../state/session.js';
import type { VideoTask } from '../state/video-task.js';
import { decodeVideoRequest, type Sourced, type VideoRequest } from '../styles/videos/decode.js';
import type { Exchange, Notes } from './exchange.js';
import type { Mock } from './mock.js';
import { mediaModel, nextId } from './request.js';
import { scenarioStep } from './scenario.js';

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

export interface CreatedTask {
  task?: VideoTask;
  decision: ScenarioDecision;
  /** No fixture shapes it and an upstream is set: the upstream makes the task this order asks for. */
  forward?: TaskOrder;
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

/**
 * Decodes, checks and stores a new task; `prefix` is `video` (OpenAI form) or `task` (gateway
 * form). A scenario error step leaves no task behind.
 */
export function createTask(mock: Mock, exchange: Exchange, envelope: Envelope, prefix: 'video' | 'task', notes: Notes, headers: Record<string, string>): CreatedTask {
  const request = decodeVideoRequest(exchange.body);
  checkReference(exchange.uploads.get('input_reference'));
  const model = mediaModel(mock, request.model, 'video');
  notes.model = model.id;
  const order = { model, prompt: request.prompt, seconds: request.seconds, size: frameSize(request), metadata: request.metadata };
  return startTask(mock, exchange, envelope, prefix, order, notes, headers);
}

/**
 * Takes the scenario step and stores the task its fixture shapes. Every task, however made
 * (created, remixed, edited, extended), progresses the same way on the clock.
 */
export function startTask(
  mock: Mock,
  exchange: Exchange,
  envelope: Envelope,
  prefix: 'video' | 'task',
  order: TaskOrder,
  notes: Notes,
  headers: Record<string, string>,
): CreatedTask {
  const { model } = order;
  notes.model = model.id;
  const subject = promptSubject(model.id, order.prompt, exchange.headers);
  const decision = scenarioStep(mock, exchange, envelope, subject, notes, headers);
  if (decision.error) return { decision };
  const config = mock.store.current;
  const fixture = firstMatch(config.videos, subject)?.fixture;
  notes.fixture = fixture?.name ?? null;
  // A remix derives from a task of this mock, which the upstream does not know.
  if (!fixture && exchange.upstream && order.remixedFromId === undefined) return { decision, forward: order };
  const reply = fixture?.spec.reply;
  const task: VideoTask = {
    id: `${prefix}_${nextId(mock, exchange.session)}`,
    model: model.id,
    prompt: order.prompt,
    createdMs: mock.clock.now(),
    seconds: order.seconds,
    size: order.size,
    metadata: order.metadata,
    ...(order.remixedFromId ? { remixedFromId: order.remixedFromId } : {}),
    timing: resolveTiming(model.timing, fixtureTiming(fixture)),
    failure: failureOf(reply?.fail_at, reply?.error),
    files: fixtureFiles(fixture),
    fixture: fixture?.name,
    polls: 0,
  };
  // The task copies the order (prompt, metadata): about the body's size, plus its own fields.
  keep(exchange.session, 'tasks', task.id, task, 1024 + exchange.bodySize);
  announceTaskChanges(mock.events, mock.sessions, mock.clock.now());
  return { task, decision };
}

/** An id this mock does not hold, with an upstream set: the task is the upstream's. */
export function upstreamTask(exchange: Exchange, id: string): boolean {
  return exchange.upstream !== undefined && !exchange.session.tasks.has(id);
}

/** The session's task, or the error the caller's form uses for an unknown id. */
export function findTask(exchange: Exchange, id: string, unknown: (id: string) => MockError, notes: Notes): VideoTask {
  const task = exchange.session.tasks.get(id);
  if (!task) throw unknown(id);
  notes.model = task.model;
  return task;
}

/** The scenario step for a request about an existing task (or the list of them). */
export function taskScenario(
  mock: Mock,
  exchange: Exchange,
  envelope: Envelope,
  task: VideoTask | undefined,
  notes: Notes,
  headers: Record<string, string>,
): ScenarioDecision {
  const subject = promptSubject(task?.model ?? '', task?.prompt ?? '', exchange.headers);
  return scenarioStep(mock, exchange, envelope, subject, notes, headers);
}
