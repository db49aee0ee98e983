// Creating and finding video tasks, shared by the OpenAI form (`/v1/videos`) and the gateway's
// task form (`/v1/video/generations`): both read and write the same tasks of the session.
import { invalid, type Envelope, type MockError } from '../conversation/errors.js';
import { firstMatch } from '../conversation/fixture.js';
import { promptSubject } from '../conversation/subject.js';
import { videoSize } from '../media/sizes.js';
import { checkReference } from '../media/upload.js';
import { fixtureFiles, fixtureTiming } from '../media/video-order.js';
import { announceTaskChanges } from '../media/task-events.js';
import { failureOf, resolveTiming } from '../media/video-tasks.js';
import type { ScenarioDecision } from '../scenarios/apply.js';
import { MAX_TASKS, putBounded } from '../state/session.js';
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
  const size = frameSize(request);
  const subject = promptSubject(model.id, request.prompt, exchange.headers);
  const decision = scenarioStep(mock, exchange, envelope, subject, notes, headers);
  if (decision.error) return { decision };
  const config = mock.store.current;
  const fixture = firstMatch(config.videos, subject)?.fixture;
  notes.fixture = fixture?.name ?? null;
  const reply = fixture?.spec.reply;
  const task: VideoTask = {
    id: `${prefix}_${nextId(mock, exchange.session)}`,
    model: model.id,
    prompt: request.prompt,
    createdMs: mock.clock.now(),
    seconds: request.seconds,
    size,
    metadata: request.metadata,
    timing: resolveTiming(model.timing, fixtureTiming(fixture)),
    failure: failureOf(reply?.fail_at, reply?.error),
    files: fixtureFiles(config.fixturesDir, fixture),
    fixture: fixture?.name,
    polls: 0,
  };
  putBounded(exchange.session.tasks, task.id, task, MAX_TASKS);
  announceTaskChanges(mock.events, mock.sessions, mock.clock.now());
  return { task, decision };
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
