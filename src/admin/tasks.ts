// `GET /__admin/tasks`: the video tasks of every session (or of `?session=`), oldest first, with
// their status and progress on the mock clock, for the inspector's progress bars.
import type { Context } from 'koa';
import { announceTaskChanges } from '../media/task-events.js';
import type { Mock } from '../server/context.js';
import { sessionParam } from './session-param.js';

export function listTasks(mock: Mock) {
  return (ctx: Context): unknown => {
    const id = sessionParam(ctx);
    const tasks = announceTaskChanges(mock.events, mock.sessions, mock.clock.now());
    return { tasks: tasks.filter((task) => id === undefined || task.session === id).sort((a, b) => a.createdMs - b.createdMs) };
  };
}
