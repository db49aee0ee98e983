// The messages style needs its version header, as the vendor does; checked after auth, so a
// request without a key still learns about the key first.
import { invalid } from '../conversation/errors.js';
import type { ShellContext } from './shell-context.js';

export function requireHeader(name: string) {
  return (ctx: ShellContext): void => {
    if (!ctx.get(name)) throw invalid(`${name}: header is required`, name);
  };
}
