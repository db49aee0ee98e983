// The body nearly every request has, JSON in UTF-8, parsed in one step from the bytes the wire
// reader kept. koa-body spends more on it than the parsing costs (four content-type checks, a copy
// of co-body's options, a pass through inflation); bourne keeps its behaviour: strict JSON (an
// object or an array), `__proto__` keys refused. Other charsets, forms, text and multipart stay
// koa-body's.
import bourne from '@hapi/bourne';

const PLAIN_JSON = /^application\/json\s*(?:;\s*charset="?utf-?8"?\s*)?$/i;
/** co-body's strict mode: only an object or an array. */
const STRICT_JSON = /^[\x20\x09\x0a\x0d]*[[{]/;
/** As co-body decodes it: UTF-8, a byte order mark dropped. */
const UTF8 = new TextDecoder('utf-8');

export function isPlainJson(contentType: string | undefined): boolean {
  return contentType !== undefined && PLAIN_JSON.test(contentType);
}

/** The parsed body and its text; an empty body is `{}`, as koa-body has it. */
export function parseJson(bytes: Uint8Array): { body: unknown; text: string } {
  return parseJsonText(UTF8.decode(bytes));
}

/** As `parseJson`, from the body's text, already decoded. */
export function parseJsonText(text: string): { body: unknown; text: string } {
  if (text === '') return { body: {}, text };
  if (!STRICT_JSON.test(text)) throw new SyntaxError('invalid JSON, only supports object and array');
  return { body: bourne.parse(text, { protoAction: 'error' }) as unknown, text };
}
