// Video tasks, the gateway's own form: `POST /v1/video/generations` answers the task object with
// `task_id` beside `id`; `GET /v1/video/generations/{task_id}` answers the `{code, message, data}`
// wrapper (WIRE.md section 10). Both work on the same tasks as `/v1/videos`.
import type { Context } from 'koa';
import { MockError } from '../conversation/errors.js';
import { EXPIRES_AFTER_MS, recordPoll, videoSnapshot } from '../media/progression.js';
import { toFault } from '../scenarios/apply.js';
import { taskEnvelope, taskWrapper } from '../styles/videos/gateway.js';
import { videoObject } from '../styles/videos/encode.js';
import type { Mock } from './context.js';
import { selfUrl } from './self-url.js';
import { createTask, findTask, taskScenario } from './video-tasks.js';
import { write } from './writer.js';

const taskStreamError = (error: MockError) => [{ data: taskEnvelope(error).body }];

// The gateway answers an unknown task with 400, not 404.
const notFound = (id: string) => new MockError('invalid_request', `Task '${id}' does not exist.`, { code: 'task_not_exist' });

export function createVideoTask(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const { task, fault } = await createTask(mock, ctx, 'task');
    const body = { ...videoObject(videoSnapshot(task, mock.clock.now()), EXPIRES_AFTER_MS), task_id: task.id };
    await write(ctx, { kind: 'json', status: 200, headers: {}, body }, toFault(fault, taskStreamError));
  };
}

export function getVideoTask(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const id = (ctx as unknown as { params: { task_id: string } }).params.task_id;
    const task = findTask(ctx, id, notFound);
    const fault = await taskScenario(mock, ctx, task);
    const body = taskWrapper(recordPoll(task, mock.clock.now()), `${selfUrl(ctx)}/v1/videos/${encodeURIComponent(task.id)}/content`);
    await write(ctx, { kind: 'json', status: 200, headers: {}, body }, toFault(fault, taskStreamError));
  };
}
