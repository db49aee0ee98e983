// Forwarding one request to the upstream: the body byte for byte as the client sent it, the client's headers
// less the hop-by-hop ones and the mock's own, the key replaced when UPSTREAM_API_KEY is set; the
// answer comes back as it arrives, for the shell to relay and the recorder to keep.
import { failure } from '../../conversation/errors.js';
import type { Exchange } from '../exchange.js';
import type { Upstream } from '../../conversation/upstream.js';

/** Headers that belong to one connection, or that the relay sets anew (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  // fetch decodes what it is sent; the relay answers the decoded bytes.
  'accept-encoding',
  'content-encoding',
]);

export interface Forwarded {
  /** The URL forwarded to, without a `key` query parameter (for the journal). */
  shownUrl: string;
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
}

function requestHeaders(exchange: Exchange, key: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.headers)) {
    // HTTP/2's pseudo-headers (`:authority`) name the request to the mock, and are no HTTP/1.1 header.
    if (HOP_BY_HOP.has(name) || name.startsWith(':') || name.startsWith('x-mock-') || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (key) {
    if (headers.authorization) headers.authorization = `Bearer ${key}`;
    if (headers['x-api-key']) headers['x-api-key'] = key;
    if (headers['x-goog-api-key']) headers['x-goog-api-key'] = key;
  }
  return headers;
}

function target(upstream: Upstream, exchange: Exchange): { url: string; shown: string } {
  const query = new URLSearchParams(exchange.search);
  // The query goes on as sent, unless its key is replaced.
  const replaced = upstream.key !== undefined && query.has('key');
  if (replaced) query.set('key', upstream.key!);
  const search = replaced ? `?${query}` : exchange.search ? `?${exchange.search}` : '';
  const shownQuery = new URLSearchParams(query);
  shownQuery.delete('key');
  return { url: `${upstream.url}${exchange.path}${search}`, shown: `${upstream.url}${exchange.path}${shownQuery.size > 0 ? `?${shownQuery}` : ''}` };
}

/** What the line's error says when the upstream's deadline (a batch line's) passed first. */
export function upstreamTimedOut(upstream: Upstream, shown: string) {
  return failure('upstream_timeout', `The upstream ${shown} did not answer within ${upstream.timeoutMs} ms (--upstream-timeout-ms).`);
}

export async function forward(upstream: Upstream, exchange: Exchange): Promise<Forwarded> {
  const { url, shown } = target(upstream, exchange);
  const headers = requestHeaders(exchange, upstream.key);
  const body = exchange.method !== 'GET' && exchange.method !== 'HEAD' ? exchange.rawBody : undefined;
  let response: Response;
  exchange.outward?.();
  try {
    response = await fetch(url, { method: exchange.method, headers, body, signal: exchange.signal, redirect: 'manual' });
  } catch (error) {
    if ((exchange.signal?.reason as Error | undefined)?.name === 'TimeoutError') throw upstreamTimedOut(upstream, shown);
    const reason = (error as { cause?: { code?: string; message?: string } }).cause;
    throw failure('upstream_unreachable', `The upstream ${shown} could not be reached: ${reason?.code ?? reason?.message ?? (error as Error).message}.`, { status: 502 });
  }
  const answered: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    // The mock says where its answer came from itself (an upstream that is a mock says it too).
    if (!HOP_BY_HOP.has(name) && !name.startsWith('x-mock-')) answered[name] = value;
  });
  const stream = response.body;
  return {
    shownUrl: shown,
    status: response.status,
    headers: answered,
    body: stream ? (stream as unknown as AsyncIterable<Uint8Array>) : (async function* () {})(),
  };
}
