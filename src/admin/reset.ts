// `POST /__admin/reset`: forgets one session's state, or every session's and the global
// scenario. Loaded files stay; ids start again from the session's first.
import type { Context } from 'koa';
import type { Mock } from '../server/context.js';
import { sessionParam } from './session-param.js';

export function reset(mock: Mock) {
  return (ctx: Context): unknown => {
    const id = sessionParam(ctx);
    mock.sessions.reset(id);
    return { reset: id ?? 'all' };
  };
}
