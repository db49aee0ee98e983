// `GET /__admin/tasks`: the video tasks of every session (or of `?session=`), oldest first, with
// their status and progress on the mock clock, for the inspector's progress bars.
import { announceTaskChanges } from '../../media/task-events.js';
import type { Mock } from '../mock.js';
import { sessionParam, type AdminRequest } from './request.js';

export function listTasks(mock: Mock, request: AdminRequest): unknown {
  const id = sessionParam(request);
  const tasks = announceTaskChanges(mock.events, mock.sessions, mock.clock.now());
  return { tasks: tasks.filter((task) => id === undefined || task.session === id).sort((a, b) => a.createdMs - b.createdMs) };
}
