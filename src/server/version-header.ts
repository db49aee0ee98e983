// The messages style needs its version header, as the vendor does; checked after auth, so a
// request without a key still learns about the key first.
import type { Context, Next } from 'koa';
import { invalid } from '../conversation/errors.js';

export function requireHeader(name: string) {
  return (ctx: Context, next: Next): Promise<void> => {
    if (!ctx.get(name)) throw invalid(`${name}: header is required`, name);
    return next();
  };
}
