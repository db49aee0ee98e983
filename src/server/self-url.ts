// The mock's own base URL as the client reached it, for URLs it hands out (picture URLs, a video
// task's result_url). Koa's `ctx.origin` is the request's Origin header, not this.
import type { Context } from 'koa';

export function selfUrl(ctx: Context): string {
  return `${ctx.protocol}://${ctx.host}`;
}
