// The upstream is the developer's account (SPEC 12): with UPSTREAM_API_KEY, every forwarded
// request spends the real key. A page the developer merely visits can call the mock (the model
// API answers CORS for any origin), so only requests with no Origin (SDKs, curl, servers) or from
// the developer's own pages (loopback, --admin-origin) are forwarded; any other is answered as if
// there were no upstream. And no path parameter may climb out of its segment on the upstream.
import { failure } from '../../conversation/errors.js';
import type { Upstream } from '../../conversation/upstream.js';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** `http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`: pages served on the developer's machine. */
export function isLoopbackOrigin(origin: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  return parsed.origin === origin && parsed.protocol === 'http:' && LOOPBACK_NAMES.includes(parsed.hostname);
}

/** Why a request from this origin is not forwarded; undefined when it may be. */
export function originRefusal(upstream: Upstream, origin: string | undefined): string | undefined {
  if (!origin || isLoopbackOrigin(origin) || upstream.origins.includes(origin)) return undefined;
  return `the page at ${origin} is neither loopback nor an --admin-origin, and the upstream is the developer's account`;
}

/** A 400 for a path parameter that is, or holds, a `.` or `..` segment once decoded (`%2e%2e`, `..%2f`). */
export function checkPathParams(params: Record<string, string>): void {
  for (const [name, value] of Object.entries(params)) {
    if (value.split(/[/\\]/).some((segment) => segment === '.' || segment === '..')) {
      throw failure('invalid_value', `The path parameter ${name} may not be or hold a "." or ".." segment.`, { param: name });
    }
  }
}
