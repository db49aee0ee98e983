// The session an admin call is about: `?session=ID`, else the caller's own `x-mock-session`.
// Absent, calls that can mean "every session" (journal, reset, scenario) do.
import type { Context } from 'koa';

export function sessionParam(ctx: Context): string | undefined {
  const query = ctx.query.session;
  if (typeof query === 'string' && query) return query;
  return ctx.get('x-mock-session') || undefined;
}
