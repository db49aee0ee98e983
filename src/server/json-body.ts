// The body nearly every request has, JSON in UTF-8 and not compressed, read in one step. koa-body
// spends more on it than the reading costs (four content-type checks, a copy of co-body's options,
// a pass through inflation); the same libraries underneath (raw-body, bourne) keep its behaviour:
// the limit, strict JSON (an object or an array), `__proto__` keys refused. Other charsets,
// compressed bodies, forms, text and multipart stay koa-body's.
import type { IncomingMessage } from 'node:http';
import bourne from '@hapi/bourne';
import getRawBody from 'raw-body';

const PLAIN_JSON = /^application\/json\s*(?:;\s*charset="?utf-?8"?\s*)?$/i;
/** The methods koa-body parses a body for. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/** co-body's strict mode: only an object or an array. */
const STRICT_JSON = /^[\x20\x09\x0a\x0d]*[[{]/;

export function isPlainJson(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  const encoding = req.headers['content-encoding'];
  return type !== undefined && WITH_BODY.has(req.method!) && (encoding === undefined || encoding === 'identity') && PLAIN_JSON.test(type);
}

/** The parsed body and its text; an empty body is `{}`, as koa-body has it. */
export async function readJson(req: IncomingMessage, limit: number): Promise<{ body: unknown; text: string }> {
  const text = await getRawBody(req, { length: req.headers['content-length'], limit, encoding: 'utf8' });
  if (text === '') return { body: {}, text };
  if (!STRICT_JSON.test(text)) throw new SyntaxError('invalid JSON, only supports object and array');
  return { body: bourne.parse(text, { protoAction: 'error' }) as unknown, text };
}
