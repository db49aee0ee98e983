// Who may drive the admin API: the developer's own pages and tools, never another web site. The
// mock runs beside a browser that visits anything, so a page elsewhere must not be able to add a
// fixture (a form POST needs no preflight), read the journal cross-origin, or reach the mock by
// DNS rebinding (its own name resolving to 127.0.0.1, which the Host header still shows).
import { isIP } from 'node:net';
import type { Context } from 'koa';
import { failure, type MockError } from '../conversation/errors.js';
import { isLoopbackOrigin } from '../exchange/upstream/origin.js';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '[::]']);
const MUTATING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
const JSON_TYPE = /^(?:application\/json|[\w.!#$&^+-]+\/[\w.!#$&^+-]+\+json)$/i;

/** Whom the admin API answers besides loopback: from `--host`, `--admin-host` and `--admin-origin`. */
export interface AdminAccess {
  hosts: ReadonlySet<string>;
  origins: ReadonlySet<string>;
  /** Bound to every interface: an IP literal in Host cannot come from rebinding, so it is let in. */
  anyIpHost: boolean;
}

/** A Host header's name without its port, lower-cased (IPv6 keeps its brackets). */
export function hostName(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  return lower.split(':')[0]!;
}

/** Throws when an `--admin-origin` is not an origin such as `http://app.test:3000`. */
export function adminAccess(boundHost: string, adminHosts: readonly string[], adminOrigins: readonly string[]): AdminAccess {
  const bound = hostName(boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost);
  const origins = adminOrigins.map((origin) => {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new Error(`--admin-origin must be an origin such as http://app.test:3000, got "${origin}"`);
    }
    if (parsed.origin === 'null') throw new Error(`--admin-origin must be an http(s) origin, got "${origin}"`);
    return parsed.origin;
  });
  return {
    hosts: new Set([...LOOPBACK_NAMES, bound, ...adminHosts.map(hostName)]),
    origins: new Set(origins),
    anyIpHost: WILDCARD_ADDRESSES.has(bound),
  };
}

function hostAllowed(host: string | undefined, access: AdminAccess): boolean {
  // Browsers always send Host; a tool speaking HTTP/1.0 without one is not a web page.
  if (host === undefined) return true;
  const name = hostName(host);
  return access.hosts.has(name) || (access.anyIpHost && isIP(name.replace(/^\[|\]$/g, '')) !== 0);
}

function originAllowed(origin: string, host: string | undefined, access: AdminAccess): boolean {
  if (access.origins.has(origin) || isLoopbackOrigin(origin)) return true;
  // The mock's own origin: its page calling its own API.
  return host !== undefined && origin === `http://${host.toLowerCase()}` && URL.canParse(origin) && new URL(origin).origin === origin;
}

function hasBody(ctx: Context): boolean {
  return ctx.get('transfer-encoding') !== '' || Number(ctx.get('content-length')) > 0;
}

/**
 * Checks an admin request (preflights included) and sets its CORS headers; the refusal when it
 * comes from where the admin API does not answer.
 */
export function admitAdmin(ctx: Context, access: AdminAccess): MockError | undefined {
  const host = ctx.req.headers.host;
  if (!hostAllowed(host, access)) {
    return failure('admin_host_refused', `The admin API does not answer the Host "${host}"; start the mock with --admin-host NAME to allow a name.`);
  }
  const origin = ctx.get('origin');
  if (origin) {
    if (!originAllowed(origin, host, access)) {
      return failure('admin_origin_refused', `The admin API does not answer pages from ${origin}; start the mock with --admin-origin ${origin} to allow it.`);
    }
    ctx.set('access-control-allow-origin', origin);
    ctx.set('vary', 'origin');
  }
  if (MUTATING.has(ctx.method) && hasBody(ctx) && !JSON_TYPE.test(ctx.request.type)) {
    return failure('admin_content_type', `The admin API takes JSON bodies: send "content-type: application/json", not "${ctx.get('content-type') || 'none'}".`, { status: 415, param: 'content-type' });
  }
  return undefined;
}
