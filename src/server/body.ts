// Request bodies: JSON, forms and text on every body route, multipart only where uploads belong.
// Whatever is wrong with a body ends as a 4xx in the route's envelope: over the limit (announced
// or counted while reading) 413, undecodable or unparseable 400, nested deeper than any real
// request 400. Uploaded files stay in memory, so no request, good or bad, leaves a temp file.
import { Readable, Writable } from 'node:stream';
import type { Context, Middleware, Next } from 'koa';
import type { KoaBodyMiddlewareOptions } from 'koa-body';
import { failure, MockError } from '../conversation/errors.js';
import { MAX_BODY_DEPTH, measureBody, measureJson, type BodyShape } from '../styles/body-shape.js';
import type { Mock } from '../exchange/mock.js';
import { isPlainJson, readJson } from './json-body.js';
import type { MockState } from './state.js';

/**
 * The body parsers: JSON (and forms) everywhere, multipart only where uploads belong, and a
 * fixtures document (`POST /__admin/fixtures`) bounded as a fixtures file is, before it is parsed.
 */
export interface BodyParsers {
  json: Middleware;
  multipart: Middleware;
  document: Middleware;
}

function tooLarge(limit: number): MockError {
  return new MockError('too_large', `The request body is larger than the limit of ${limit} bytes.`);
}

/** The bytes of each uploaded file, kept by the file object the parser hands to the route. */
const uploaded = new WeakMap<object, Buffer[]>();

function memoryFile(file: object | undefined): Writable {
  const chunks: Buffer[] = [];
  if (file) uploaded.set(file, chunks);
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
}

/** The content of a file from `ctx.request.files`. */
export function uploadedBytes(file: object): Buffer {
  return Buffer.concat(uploaded.get(file) ?? []);
}

/**
 * Everything the parsers throw is about the client's bytes: a size over the limit, an encoding
 * that does not decode (zlib errors carry no status), a broken multipart frame, invalid JSON.
 */
function bodyError(error: unknown, limit: number): MockError {
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

/**
 * A multipart body that may be forwarded is read whole first (within the limit) and the parser
 * fed from those bytes, so the upstream gets the body byte for byte as the client sent it.
 */
async function parseKeepingBytes(ctx: Context, limit: number, parse: () => Promise<void>): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  const original = ctx.req;
  ctx.req = Object.assign(Readable.from([bytes]), { headers: original.headers, method: original.method, url: original.url }) as unknown as typeof original;
  try {
    await parse();
  } finally {
    ctx.req = original;
  }
  (ctx.request as { rawBody?: Buffer }).rawBody = bytes;
}

export function bodyParser(mock: Mock, multipart: boolean, limit = mock.options.bodyLimitBytes): Middleware {
  const options: Partial<KoaBodyMiddlewareOptions> = {
    // A request that may be forwarded is sent on as the client wrote it.
    includeUnparsed: mock.options.upstream !== undefined,
    jsonLimit: limit,
    formLimit: limit,
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
    },
  };
  // koa-body (with formidable) is loaded with the first body that is not plain JSON: it took
  // longer to load than the rest of the server, and most runs never see such a body.
  let koaBodyParse: Promise<Middleware> | undefined;
  const parse = async (ctx: Context, next: Next): Promise<void> => {
    const middleware = await (koaBodyParse ??= import('koa-body').then(({ koaBody }) => koaBody(options)));
    await middleware(ctx, next);
  };
  // koa-body calls its `next` itself; the route runs only after the checks below.
  const parsedOnly = async (): Promise<void> => {};
  const forwarding = mock.options.upstream !== undefined;
  return async (ctx: Context, next: Next): Promise<void> => {
    // An announced oversized body is refused before a byte of it is read (Node discards it).
    if (Number(ctx.get('content-length')) > limit) throw tooLarge(limit);
    let shape: BodyShape | undefined;
    try {
      if (isPlainJson(ctx.req)) {
        const { body, text } = await readJson(ctx.req, limit);
        ctx.request.body = body as typeof ctx.request.body;
        if (forwarding) (ctx.request as { rawBody?: string }).rawBody = text;
        shape = measureJson(text, body);
      } else if (forwarding && multipart && ctx.is('multipart')) await parseKeepingBytes(ctx, limit, () => parse(ctx, parsedOnly));
      else await parse(ctx, parsedOnly);
    } catch (error) {
      // A parser that gave up midway leaves the rest unread, paused: the client's next request on
      // this keep-alive connection would wait behind it. Read it to the end and drop it.
      if (!ctx.req.complete) ctx.req.resume();
      throw bodyError(error, limit);
    }
    shape ??= measureBody(ctx.request.body);
    if (!shape.withinDepth) {
      // Nothing keeps the body: the journal would fail to serialise it later.
      ctx.request.body = undefined;
      throw failure('invalid_body', `The request body nests deeper than ${MAX_BODY_DEPTH} levels.`);
    }
    (ctx.state as MockState).bodySize = shape.size;
    await next();
  };
}
