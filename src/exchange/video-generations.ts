// Video tasks, the gateway's own form: `POST /v1/video/generations` answers the task object with
// `task_id` beside `id`; `GET /v1/video/generations/{task_id}` answers the `{code, message, data}`
// wrapper (WIRE.md section 10). Both work on the same tasks as `/v1/videos`.
import { failure } from '../conversation/errors.js';
import { EXPIRES_AFTER_MS, recordPoll, videoSnapshot } from '../media/progression.js';
import { toFault } from '../scenarios/apply.js';
import { videoObject } from '../styles/videos/encode.js';
import { taskEnvelope, taskStreamError, taskWrapper } from '../styles/videos/gateway.js';
import { json, newNotes, settle, type Exchange, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { relay } from './upstream/relay.js';
import { createTask, findTask, taskScenario, upstreamTask } from './video-tasks.js';

// The gateway answers an unknown task with 400, not 404.
const notFound = (id: string) => failure('task_not_exist', `Task '${id}' does not exist.`);

export function createVideoTask(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('videos'), async (notes, headers) => {
    const { task, decision, forward } = createTask(mock, exchange, taskEnvelope, 'task', notes, headers);
    if (forward) return relay(mock, exchange, notes);
    if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
    const body = { ...videoObject(videoSnapshot(task!, mock.clock.now()), EXPIRES_AFTER_MS), task_id: task!.id };
    return { ...json(body), fault: toFault(decision.fault, taskStreamError) };
  });
}

export function getVideoTask(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('videos'), async (notes, headers) => {
    if (upstreamTask(exchange, exchange.params.task_id!)) return relay(mock, exchange, notes);
    const task = findTask(exchange, exchange.params.task_id!, notFound, notes);
    const decision = taskScenario(mock, exchange, taskEnvelope, task, notes, headers);
    if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
    const body = taskWrapper(recordPoll(task, mock.clock.now()), `${exchange.origin}/v1/videos/${encodeURIComponent(task.id)}/content`);
    return { ...json(body), fault: toFault(decision.fault, taskStreamError) };
  });
}
