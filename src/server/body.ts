// Request bodies: JSON, forms and text on every body route, multipart only where uploads belong.
// Whatever is wrong with a body ends as a 4xx in the route's envelope: over the limit (announced
// or counted while reading) 413, undecodable or unparseable 400, nested deeper than any real
// request 400. Uploaded files stay in memory, so no request, good or bad, leaves a temp file.
import { Readable, Writable } from 'node:stream';
import type { Part } from 'formidable';
import type { Context, Middleware, Next } from 'koa';
import type { KoaBodyMiddlewareOptions } from 'koa-body';
import { failure, MockError } from '../conversation/errors.js';
import { measureBody, measureJson, type BodyShape } from '../styles/body-shape.js';
import type { Mock } from '../exchange/mock.js';
import { Slice, turnForBytes } from '../state/event-loop.js';
import { BodiesInFlight } from '../state/large-bodies.js';
import { loadFormParser } from './form-parser.js';
import { isPlainJson, JSON_TYPES, nestedTooDeep, parseJson, parseJsonText, refuseDeepJson, type ParsedJson } from './json-body.js';
import { JOURNAL_BODY_MAX } from '../state/journal.js';
import { decodeBody, isIdentity, readWire, readWireChunks, readWireTextAndChunks, refuseAnnounced, tooLarge } from './wire-body.js';
import type { ShellContext } from './shell-context.js';
import type { MockState } from './state.js';

/**
 * The body parsers: JSON (and forms) everywhere, multipart only where uploads belong, and a
 * fixtures document (`POST /__admin/fixtures`) bounded as a fixtures file is, before it is parsed.
 */
export interface BodyParsers {
  json: Middleware;
  multipart: Middleware;
  document: Middleware;
  /** JSON for a door with a body limit of its own (`ModelRoute.bodyLimit`), `--body-limit` still the ceiling. */
  jsonWithin(limit: number): Middleware;
}

/**
 * No door takes a URL-encoded form (the SDKs send JSON, or multipart with files), and its parser
 * spends about 70 ms on a key of 100,000 brackets: a form is read up to this size.
 */
const FORM_LIMIT = 64 * 1024;

/** The methods koa-body parses a body for; others leave it unread (Node drops it). */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** The bytes of each uploaded file, kept by the file object the parser hands to the route. */
const uploaded = new WeakMap<object, Buffer>();

/** The chunks joined into one buffer, the loop given back between slices of the copying. */
async function joinedInSlices(chunks: readonly Buffer[]): Promise<Buffer> {
  const joined = Buffer.allocUnsafe(chunks.reduce((size, chunk) => size + chunk.length, 0));
  const slice = new Slice();
  let at = 0;
  for (const chunk of chunks) {
    if (slice.over) await slice.next();
    at += chunk.copy(joined, at);
  }
  return joined;
}

/**
 * A file's bytes, joined once its part ends (the parser waits for it): a 40 MB file joined in one
 * call when the route asked for it held the loop for half a second on a busy machine.
 */
function memoryFile(file: object | undefined): Writable {
  const chunks: Buffer[] = [];
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
    final(done) {
      joinedInSlices(chunks).then((joined) => {
        if (file) uploaded.set(file, joined);
        done();
      }, done);
    },
  });
}

/**
 * A part with a file name is a file, with or without its own `Content-Type` (Python `requests`
 * sends none); the parser would take it for a text field and decode its bytes as text.
 */
function asFile(part: Part, handle: (part: Part) => void): void {
  if (typeof part.originalFilename === 'string' && !part.mimetype) part.mimetype = 'application/octet-stream';
  handle(part);
}

/** The content of a file from `ctx.request.files`. */
export function uploadedBytes(file: object): Buffer {
  return uploaded.get(file) ?? Buffer.alloc(0);
}

/**
 * Everything the reader and the parsers throw is about the client's bytes: a size over the limit,
 * an encoding that does not decode, a broken multipart frame, invalid JSON. The reader's own
 * errors come as they are.
 */
function bodyError(error: unknown, limit: number): MockError {
  if (error instanceof MockError) return error;
  const { status, httpCode, message } = error as { status?: number; httpCode?: number; message?: string };
  const code = status ?? httpCode;
  if (code === 413) return tooLarge(limit);
  // co-body raises a SyntaxError with status 400, also for `__proto__` keys, which it refuses.
  if (error instanceof SyntaxError) {
    return failure('invalid_json', `We could not parse the JSON body of your request: ${message}`);
  }
  return failure('invalid_body', `The request body could not be read: ${message || 'malformed body'}.`, {
    status: code !== undefined && code >= 400 && code < 500 ? code : 400,
  });
}

/** What the multipart parser is given at a time: it scans a chunk in one call, about 15 ms a megabyte. */
const PARSED_CHUNK = 64 * 1024;

/**
 * A body's bytes a chunk at a time, the loop given back between slices: a 40 MB upload given to
 * the multipart parser whole held the loop for seconds.
 */
async function* inSlices(chunks: readonly Buffer[]): AsyncGenerator<Buffer> {
  const slice = new Slice();
  for (const chunk of chunks) {
    for (let start = 0; start < chunk.length; start += PARSED_CHUNK) {
      if (slice.over) await slice.next();
      yield chunk.subarray(start, start + PARSED_CHUNK);
    }
  }
}

/**
 * The parsers read the body from the bytes the wire reader kept, already decoded: they never see
 * the socket, so none of them can stop reading it halfway.
 */
async function parseFrom(ctx: Context, chunks: readonly Buffer[], size: number, parse: () => Promise<void>): Promise<void> {
  const original = ctx.req;
  const { 'content-encoding': _encoding, 'transfer-encoding': _framing, ...headers } = original.headers;
  headers['content-length'] = String(size);
  ctx.req = Object.assign(Readable.from(inSlices(chunks), { objectMode: false }), { headers, method: original.method, url: original.url }) as unknown as typeof original;
  try {
    await parse();
  } finally {
    ctx.req = original;
  }
}

/**
 * A body as read: its text (plain JSON decoded as it came, with its chunks when the journal can
 * keep them), or its chunks, and the whole bytes when they were joined.
 */
type ReadBody = { text: string; chunks?: Buffer[]; size: number } | { chunks: Buffer[]; bytes?: Buffer; size: number };

/** A body's bytes as sent, decoded from its Content-Encoding. */
async function readBytes(ctx: Context, limit: number): Promise<ReadBody> {
  const bytes = await decodeBody(await readWire(ctx.req, limit), ctx.get('content-encoding'), limit);
  return { bytes, chunks: [bytes], size: bytes.length };
}

/** Each mock's large bodies in flight, shared by its parsers. */
const inFlightByMock = new WeakMap<Mock, BodiesInFlight>();

function bodiesInFlight(mock: Mock): BodiesInFlight {
  let inFlight = inFlightByMock.get(mock);
  if (!inFlight) inFlightByMock.set(mock, (inFlight = new BodiesInFlight()));
  return inFlight;
}

export function bodyParser(mock: Mock, multipart: boolean, limit = mock.options.bodyLimitBytes): Middleware {
  const options: Partial<KoaBodyMiddlewareOptions> = {
    jsonLimit: limit,
    jsonTypes: JSON_TYPES,
    formLimit: Math.min(limit, FORM_LIMIT),
    textLimit: limit,
    multipart,
    formidable: {
      maxFileSize: limit,
      maxTotalFileSize: limit,
      maxFieldsSize: limit,
      // An empty or tiny file is the route's to judge, naming its field.
      allowEmptyFiles: true,
      minFileSize: 0,
      fileWriteStreamHandler: memoryFile,
      onPart: asFile,
    },
  };
  let koaBodyParse: Promise<Middleware> | undefined;
  const parse = async (ctx: Context, next: Next): Promise<void> => {
    const middleware = await (koaBodyParse ??= loadFormParser().then(({ koaBody }) => koaBody(options)));
    await middleware(ctx, next);
  };
  // koa-body calls its `next` itself; the route runs only after the checks below.
  const parsedOnly = async (): Promise<void> => {};
  const forwarding = mock.options.upstream !== undefined;
  const inFlight = bodiesInFlight(mock);
  return async (ctx: Context, next: Next): Promise<void> => {
    const announced = Number(ctx.get('content-length'));
    // An announced oversized body is refused before a byte of it is kept.
    if (announced > limit) throw refuseAnnounced(ctx, limit);
    let shape: BodyShape | undefined;
    // What this request holds of the mock's bodies in flight (at most one figure), given back whenever it ends.
    let held = 0;
    try {
      if (WITH_BODY.has(ctx.method)) {
        // A large body waits for the mock and for its turn of the loop (state/event-loop.ts)
        // before a byte of it is read, so the bodies waiting stay in their sockets; a chunked or
        // compressed one waits, once read, for what it added. A small one never awaits here.
        const admitted = inFlight.admit(announced);
        if (admitted) await admitted;
        held = announced;
        const started = turnForBytes(announced);
        if (started) await started;
        // A body as sent (not compressed, not kept to forward) is decoded as it comes, if plain
        // JSON, or kept in its chunks for the parser.
        const plainJson = isPlainJson(ctx.get('content-type'));
        const asSent = !forwarding && isIdentity(ctx.get('content-encoding'));
        const read: ReadBody = asSent && plainJson ? await readWireTextAndChunks(ctx.req, limit, JOURNAL_BODY_MAX) : asSent ? await readWireChunks(ctx.req, limit) : await readBytes(ctx, limit);
        if (!announced) {
          const admittedRead = inFlight.admit(read.size);
          if (admittedRead) await admittedRead;
          held = read.size;
        }
        const decoded = turnForBytes(read.size - announced);
        if (decoded) await decoded;
        // A request that may be forwarded is sent on as the client wrote it (decoded).
        if (forwarding && !('text' in read)) (ctx.request as { rawBody?: Buffer }).rawBody = read.bytes;
        // An empty form holds no fields (the multipart parser fails on one with a stream error):
        // the route names what is missing.
        if (read.size === 0 && ctx.is('multipart')) ctx.request.body = {};
        else if (plainJson) {
          const bytes = 'text' in read ? read.chunks : [read.bytes ?? Buffer.concat(read.chunks)];
          const parsed = 'text' in read ? parseJsonText(read.text) : parseJson(bytes![0]!);
          // Only a large body's parse is awaited: the usual request goes on in the same microtask.
          shape = keepJson(ctx, bytes, read.size, parsed instanceof Promise ? await parsed : parsed);
        } else if (!('text' in read)) {
          if (read.size > FORM_LIMIT && ctx.is('urlencoded')) throw tooLarge(FORM_LIMIT);
          if (ctx.is(JSON_TYPES)) refuseDeepJson(read.chunks);
          await parseFrom(ctx, read.chunks, read.size, () => parse(ctx, parsedOnly));
        }
      } else await parse(ctx, parsedOnly);
    } catch (error) {
      inFlight.release(held);
      throw bodyError(error, limit);
    }
    try {
      await finishBody(ctx, shape, next);
    } finally {
      inFlight.release(held);
    }
  };
}

/** UTF-8's byte order mark, looked at a byte at a time: no view of a body's first bytes made to look. */
const startsWithMark = (bytes: Buffer): boolean => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

/** The bytes of the text the parser read: it drops a byte order mark, as co-body does. */
function withoutByteOrderMark(chunks: Buffer[]): Buffer[] {
  // The mark is three bytes: a first chunk shorter than that is joined to the rest to look.
  const joined = chunks[0] !== undefined && chunks[0].length < 3 ? [Buffer.concat(chunks)] : chunks;
  const first = joined[0];
  return first !== undefined && startsWithMark(first) ? [first.subarray(3), ...joined.slice(1)] : chunks;
}

/** A plain JSON body as parsed, on the request: its own bytes kept for the journal when within its bound. */
function keepJson(ctx: ShellContext, bytes: Buffer[] | undefined, size: number, { body, text }: ParsedJson): BodyShape {
  ctx.request.body = body;
  if (bytes && size <= JOURNAL_BODY_MAX) (ctx.state as MockState).bodyBytes = withoutByteOrderMark(bytes);
  return measureJson(text, body);
}

/** Refuses a body nested too deep, and notes its size. */
function settleBody(ctx: ShellContext, shape: BodyShape): void {
  if (!shape.withinDepth) {
    // Nothing keeps the body, nor its bytes: the journal could not serve it back.
    ctx.request.body = undefined;
    (ctx.state as MockState).bodyBytes = undefined;
    throw nestedTooDeep();
  }
  (ctx.state as MockState).bodySize = shape.size;
}

/** Settles the body, then lets the route answer. */
async function finishBody(ctx: Context, shape: BodyShape | undefined, next: Next): Promise<void> {
  settleBody(ctx, shape ?? measureBody(ctx.request.body));
  await next();
}

/**
 * A small body of plain JSON, sent as it is, announced within `limit` (server/plain-hit.ts):
 * read as the parser above reads one, with its errors.
 */
export async function readPlainJson(ctx: ShellContext, limit: number): Promise<void> {
  let shape: BodyShape;
  try {
    const read = await readWireTextAndChunks(ctx.req, limit, JOURNAL_BODY_MAX);
    const parsed = parseJsonText(read.text);
    shape = keepJson(ctx, read.chunks, read.size, parsed instanceof Promise ? await parsed : parsed);
  } catch (error) {
    throw bodyError(error, limit);
  }
  settleBody(ctx, shape);
}
