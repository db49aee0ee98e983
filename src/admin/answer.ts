// Admin handlers return their JSON; the one writer puts it on the response, as for every route.
import type { Context, Middleware } from 'koa';
import { write } from '../server/writer.js';

export type AdminHandler = (ctx: Context) => unknown;

export function answer(handler: AdminHandler, status = 200): Middleware {
  return async (ctx) => {
    const body = handler(ctx);
    await write(ctx, { kind: 'json', status, headers: {}, body });
  };
}
