// A request body as it came on the wire, read whole within the limit, then decoded
// (Content-Encoding) with the limit on what it may inflate to. Nothing is piped, so nothing
// pauses the request: a body over the limit is refused at once while the rest of it is read and
// dropped, and the client's next request on the same keep-alive connection is served.
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, unzip, type InputType, type ZlibOptions } from 'node:zlib';
import { failure, MockError } from '../conversation/errors.js';

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

const clientGone = (): MockError => failure('invalid_body', 'The request body ended before its announced end: the client closed the connection.');

/** The body's bytes as sent, at most `limit` of them; over it, a 413 at once and the rest dropped. */
export function readWire(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // A client can leave while its body waits for its turn (state/event-loop.ts): no event would come.
    if (req.destroyed) return void reject(clientGone());
    const chunks: Buffer[] = [];
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
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks, size));
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

type Decoder = (bytes: InputType, options: ZlibOptions) => Promise<Buffer>;

// `unzip` reads gzip and zlib-wrapped deflate alike, as the body parsers before it did.
const DECODERS: Record<string, Decoder> = {
  gzip: promisify(unzip),
  'x-gzip': promisify(unzip),
  deflate: promisify(unzip),
  br: promisify(brotliDecompress) as Decoder,
};

/** The body decoded from its Content-Encoding, inflating to at most `limit` bytes (zlib stops there). */
export async function decodeBody(bytes: Buffer, encoding: string | undefined, limit: number): Promise<Buffer> {
  const name = (encoding ?? '').trim().toLowerCase();
  if (name === '' || name === 'identity') return bytes;
  const decoder = DECODERS[name];
  if (!decoder) throw failure('invalid_body', `The Content-Encoding "${name}" is not supported: send gzip, deflate, br or identity.`, { status: 415 });
  try {
    return await decoder(bytes, { maxOutputLength: limit });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limit);
    throw failure('invalid_body', `The request body could not be decoded as ${name}: ${(error as Error).message}.`);
  }
}
