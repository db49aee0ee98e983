// `GET /__admin/events`: the mock's events as server-sent events, for the inspector page. An
// EventSource cannot send headers, so with --admin-token the token may come as `?token=`.
// The stream lives until the client leaves (dropped at once) or falls behind (closed; the
// EventSource reconnects and the page reloads the journal).
import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import { MockError } from '../conversation/errors.js';
import type { Mock } from '../exchange/mock.js';
import { sseFrame } from './sse.js';

function authorised(mock: Mock, ctx: Context): boolean {
  const token = mock.options.adminToken;
  if (!token) return true;
  return ctx.get('authorization') === `Bearer ${token}` || ctx.query.token === token;
}

/** Waits for the socket to take more, or for the watcher to be dropped meanwhile. */
function waitForDrain(res: ServerResponse, ended: Promise<void>): Promise<void> {
  let done = () => {};
  const drained = new Promise<void>((resolve) => {
    done = () => resolve();
    res.once('drain', done);
    res.once('close', done);
  });
  return Promise.race([drained, ended]).finally(() => {
    res.off('drain', done);
    res.off('close', done);
  });
}

export function eventStream(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    if (!authorised(mock, ctx)) {
      throw new MockError('unauthorized', 'The event stream needs "Authorization: Bearer <admin token>" or "?token=<admin token>".');
    }
    const subscription = mock.events.subscribe();
    const res = ctx.res;
    const leave = () => subscription.close();
    res.once('close', leave);
    ctx.respond = false;
    // No `connection` header of ours: Node's says what becomes of the connection, `close` when the client asked so.
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    // A first comment makes proxies and the browser see the stream open before any event.
    res.write(': model-gateway-mock events\n\n');
    try {
      for await (const event of subscription) {
        if (res.destroyed) break;
        if (!res.write(sseFrame(event.name, event.json, true))) await waitForDrain(res, subscription.ended);
      }
    } finally {
      res.off('close', leave);
      subscription.close();
      // A watcher dropped for falling behind is not reading: ending politely would wait on it.
      if (subscription.overflowed) res.destroy();
      else if (!res.destroyed) res.end();
    }
  };
}
