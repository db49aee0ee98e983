// Video tasks, the gateway's own form: `POST /v1/video/generations` answers the task object with
// `task_id` beside `id`; `GET /v1/video/generations/{task_id}` answers the `{code, message, data}`
// wrapper (WIRE.md section 10). Both work on the same tasks as `/v1/videos`.
import { failure } from '../conversation/errors.js';
import { EXPIRES_AFTER_MS, recordPoll, videoSnapshot } from '../media/progression.js';
import { videoObject } from '../styles/videos/encode.js';
import { taskWrapper } from '../styles/videos/gateway.js';
import { json } from './exchange.js';
import { createdOrder, taskCreation, taskQuestion } from './video-tasks.js';

// The gateway answers an unknown task with 400, not 404.
const notFound = (id: string) => failure('task_not_exist', `Task '${id}' does not exist.`);

export const createVideoTask = taskCreation({
  prefix: 'task',
  order: createdOrder,
  answer: (mock, _exchange, task) => json({ ...videoObject(videoSnapshot(task, mock.clock.now()), EXPIRES_AFTER_MS), task_id: task.id }),
});

export const getVideoTask = taskQuestion({
  id: (exchange) => exchange.params.task_id!,
  notFound,
  answer: (mock, exchange, task) => json(taskWrapper(recordPoll(task, mock.clock.now()), `${exchange.origin}/v1/videos/${encodeURIComponent(task.id)}/content`)),
});
