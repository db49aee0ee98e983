// `POST /__admin/reset`: forgets one session's state, or every session's and the global
// scenario. Loaded files stay; ids start again from the session's first.
import type { Mock } from '../mock.js';
import { sessionParam, type AdminRequest } from './request.js';

export function reset(mock: Mock, request: AdminRequest): unknown {
  const id = sessionParam(request);
  mock.sessions.reset(id);
  return { reset: id ?? 'all' };
}
