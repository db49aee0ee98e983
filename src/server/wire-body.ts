// A request body as it came on the wire, read whole within the limit, then decoded
// (Content-Encoding) with the limit on what it may inflate to. Nothing is piped, so nothing
// pauses the request: a body over the limit is refused at once while the rest of it is read and
// dropped, and the client's next request on the same keep-alive connection is served.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { StringDecoder } from 'node:string_decoder';
import { promisify } from 'node:util';
import { brotliDecompress, unzip, type InputType, type ZlibOptions } from 'node:zlib';
import { failure, MockError } from '../conversation/errors.js';
import { inSlab, readIntoSlab } from '../state/byte-slabs.js';

/**
 * Past the limit, a refused body is still read and dropped for this much more (at least the limit
 * again), so a client still sending sees its 413; a client that sends more than that is cut off.
 */
export const DRAIN_MIN = 64 * 1024 * 1024;

export function tooLarge(limit: number): MockError {
  return new MockError('too_large', `The request body is larger than the limit of ${limit} bytes.`);
}

const drainBound = (limit: number): number => Math.max(limit, DRAIN_MIN);

/** Whether a body of this announced length will be read to its end once refused. */
export function drainable(announced: number, limit: number): boolean {
  return announced <= limit + drainBound(limit);
}

/** Reads what is left of a refused body and drops it, within the drain bound. */
export function dropRest(req: IncomingMessage, limit: number): void {
  let dropped = 0;
  const bound = drainBound(limit);
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > bound) req.socket.destroy();
  });
  req.resume();
}

/**
 * A body whose announced length is over the limit, refused before a byte of it is kept: the rest
 * is dropped within the drain bound, past it the connection closes after the answer.
 */
export function refuseAnnounced(ctx: Context, limit: number): MockError {
  if (drainable(Number(ctx.get('content-length')), limit)) dropRest(ctx.req, limit);
  else ctx.set('connection', 'close');
  return tooLarge(limit);
}

const BYTE_ORDER_MARK = 0xfeff;

const withoutMark = (text: string): string => (text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text);

const clientGone = (): MockError => failure('invalid_body', 'The request body ended before its announced end: the client closed the connection.');

/** What the reader keeps of a body's chunks as they come. */
interface Keeper<T> {
  add(chunk: Buffer): void;
  kept(size: number): T;
}

const asChunks = (): Keeper<Buffer[]> => {
  const chunks: Buffer[] = [];
  return { add: (chunk) => chunks.push(chunk), kept: () => chunks };
};

/**
 * The text of a UTF-8 body, decoded a chunk at a time as it comes (a byte order mark dropped, as
 * co-body has it): decoding 48 MB once it had all come, after joining its chunks, held the loop
 * for 400 ms. Node's StringDecoder, not a streaming TextDecoder: it decodes the same (malformed
 * bytes as U+FFFD alike), and a streaming TextDecoder goes through ICU at a quarter of its speed
 * (89 against 21 µs for an agent's 100 KB).
 */
const asText = (): Keeper<string> => {
  const decoder = new StringDecoder('utf8');
  let text = '';
  return {
    add: (chunk) => (text += decoder.write(chunk)),
    kept: () => withoutMark(text + decoder.end()),
  };
};

/** One decoder for the bodies decoded whole: nothing comes between a body's first write and its end, which leaves it empty. */
const WHOLE = new StringDecoder('utf8');

/**
 * The text `asText` makes of `chunks`, decoded at once: without a decoder made for each body (a
 * JS object and its native state's buffer, half a percent of a fresh server's first burst).
 */
function wholeText(chunks: readonly Buffer[]): string {
  let text = '';
  for (const chunk of chunks) text += WHOLE.write(chunk);
  return withoutMark(text + WHOLE.end());
}

/**
 * The text as `asText` makes it, and the chunks themselves while the body is at most `bound`
 * bytes: they are kept as they came (the journal keeps a JSON body's bytes), where joining them
 * would make a copy for nothing. Those are decoded once all have come (at most `bound` bytes, a
 * millisecond's work); a large one is first copied into a slab, as the journal keeps it
 * (`readIntoSlab`), and decoded from there in one piece: its chunks decoded one by one were joined
 * again by JSON.parse, and copied again by the journal.
 */
const asTextAndChunks = (bound: number): Keeper<{ text: string; chunks?: Buffer[] }> => {
  let streamed: Keeper<string> | undefined;
  let chunks: Buffer[] = [];
  let held = 0;
  return {
    add: (chunk) => {
      held += chunk.length;
      if (streamed === undefined && held > bound) {
        streamed = asText();
        for (const kept of chunks) streamed.add(kept);
        chunks = [];
      }
      if (streamed === undefined) chunks.push(chunk);
      else streamed.add(chunk);
    },
    kept: (size) => {
      if (streamed !== undefined) return { text: streamed.kept(size) };
      if (!inSlab(size)) return { text: wholeText(chunks), chunks };
      const body = readIntoSlab(chunks, size);
      return { text: withoutMark(body.toString()), chunks: [body] };
    },
  };
};

/** What the reader kept, at most `limit` bytes of body; over it, a 413 at once and the rest dropped. */
async function readKept<T>(req: IncomingMessage, limit: number, keeper: Keeper<T>): Promise<{ kept: T; size: number }> {
  // A small body mostly comes in the same read as its headers, and the request is handed over
  // before the parser reaches it: a microtask on, the parser has pushed that read's body.
  await undefined;
  const buffered = !req.destroyed && req.readableFlowing === null && req.readableLength <= BUFFERED_MAX && (req.complete || allPushed(req));
  return buffered ? readBuffered(req, limit, keeper) : readFlowing(req, limit, keeper);
}

/**
 * Whether every byte of a body of announced length is buffered on the request. Node's parser
 * reads the socket in C++ (shared-port.ts hands it every connection untouched), and the
 * microtasks run after it pushes a read's body and before it marks the request complete in that
 * same read: waiting for `complete` sent every body through the flowing path.
 */
function allPushed(req: IncomingMessage): boolean {
  const announced = req.headers['content-length'];
  return announced !== undefined && req.headers['transfer-encoding'] === undefined && req.readableLength === Number(announced);
}

/** The most a body taken whole from the request may be: `read()` joins its chunks into one copy. */
const BUFFERED_MAX = 64 * 1024;

/**
 * A body the parser has pushed whole, taken from the request at once: without its flowing,
 * three listeners and the ticks before its end, which cost a burst's requests as much as the
 * body's parse.
 */
function readBuffered<T>(req: IncomingMessage, limit: number, keeper: Keeper<T>): { kept: T; size: number } {
  let size = 0;
  for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) {
    size += chunk.length;
    if (size > limit) {
      dropRest(req, limit);
      throw tooLarge(limit);
    }
    keeper.add(chunk);
  }
  return { kept: keeper.kept(size), size };
}

/** A body still coming, read as it comes. */
function readFlowing<T>(req: IncomingMessage, limit: number, keeper: Keeper<T>): Promise<{ kept: T; size: number }> {
  return new Promise((resolve, reject) => {
    // A client can leave while its body waits for its turn (state/event-loop.ts): no event would come.
    if (req.destroyed) return void reject(clientGone());
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        stop();
        dropRest(req, limit);
        reject(tooLarge(limit));
        return;
      }
      keeper.add(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve({ kept: keeper.kept(size), size });
    };
    const onClose = (): void => {
      stop();
      reject(clientGone());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}

/** The body's bytes as sent, at most `limit` of them; over it, a 413 at once and the rest dropped. */
export async function readWire(req: IncomingMessage, limit: number): Promise<Buffer> {
  const { kept, size } = await readKept(req, limit, asChunks());
  return Buffer.concat(kept, size);
}

/**
 * The body's chunks as they came, for a parser that takes them one by one: joining a 40 MB upload
 * into one buffer held the loop for as long as the parsing of it.
 */
export async function readWireChunks(req: IncomingMessage, limit: number): Promise<{ chunks: Buffer[]; size: number }> {
  const { kept, size } = await readKept(req, limit, asChunks());
  return { chunks: kept, size };
}

/** A UTF-8 body's text and its size in bytes, bounded as `readWire`'s bytes are. */
export async function readWireText(req: IncomingMessage, limit: number): Promise<{ text: string; size: number }> {
  const { kept, size } = await readKept(req, limit, asText());
  return { text: kept, size };
}

/** As `readWireText`, with the body's chunks as they came when it is at most `bound` bytes. */
export async function readWireTextAndChunks(req: IncomingMessage, limit: number, bound: number): Promise<{ text: string; chunks?: Buffer[]; size: number }> {
  const { kept, size } = await readKept(req, limit, asTextAndChunks(bound));
  return { ...kept, size };
}

type Decoder = (bytes: InputType, options: ZlibOptions) => Promise<Buffer>;

// `unzip` reads gzip and zlib-wrapped deflate alike, as the body parsers before it did.
const DECODERS: Record<string, Decoder> = {
  gzip: promisify(unzip),
  'x-gzip': promisify(unzip),
  deflate: promisify(unzip),
  br: promisify(brotliDecompress) as Decoder,
};

const encodingName = (encoding: string | undefined): string => (encoding ?? '').trim().toLowerCase();

/** Whether a body with this Content-Encoding is sent as it is, not compressed. */
export function isIdentity(encoding: string | undefined): boolean {
  const name = encodingName(encoding);
  return name === '' || name === 'identity';
}

/** The body decoded from its Content-Encoding, inflating to at most `limit` bytes (zlib stops there). */
export async function decodeBody(bytes: Buffer, encoding: string | undefined, limit: number): Promise<Buffer> {
  if (isIdentity(encoding)) return bytes;
  const name = encodingName(encoding);
  const decoder = DECODERS[name];
  if (!decoder) throw failure('invalid_body', `The Content-Encoding "${name}" is not supported: send gzip, deflate, br or identity.`, { status: 415 });
  try {
    return await decoder(bytes, { maxOutputLength: limit });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limit);
    throw failure('invalid_body', `The request body could not be decoded as ${name}: ${(error as Error).message}.`);
  }
}
