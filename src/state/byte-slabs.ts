// Buffers for large journal payloads, used again once their entry has left the journal. A kept
// body's bytes lie outside V8's heap, but the object that owns them lives long enough to be old,
// and only a full collection frees an old buffer's bytes: with a coding agent's 126 KB requests,
// the journal's turnover of a megabyte every eight requests started a full collection every 170
// requests, the largest part of the collector's work on such a request. A buffer used again is
// never freed, so it starts none. The socket's own chunks, copied here, die young, as a plain
// server's do.
import { LARGE_BODY } from './large-bodies.js';

/** What the buffers waiting to be used again may add up to: about what 64 agent requests keep. */
const FREE_BYTES_MAX = 8 * 1024 * 1024;

/** Sizes are rounded up to an eighth of their power of two, so bodies of about one size share buffers. */
function slabSize(bytes: number): number {
  const step = 2 ** Math.max(0, Math.floor(Math.log2(bytes)) - 3);
  return Math.ceil(bytes / step) * step;
}

const free = new Map<number, Buffer[]>();
let freeBytes = 0;
/** Buffers given back while a reader may still hold their entries: used again once no reader does. */
let quarantined: Buffer[] = [];
let readers = 0;

/** Whether a text of `bytes` is kept in a slab: smaller ones cost the collector little. */
export const inSlab = (bytes: number): boolean => bytes >= LARGE_BODY;

/** A buffer of at least `bytes`, one given back if there is one. */
export function takeSlab(bytes: number): Buffer {
  const size = slabSize(bytes);
  const slab = free.get(size)?.pop();
  if (slab === undefined) return Buffer.allocUnsafeSlow(size);
  freeBytes -= size;
  return slab;
}

function reuse(slab: Buffer): void {
  if (freeBytes + slab.length > FREE_BYTES_MAX) return;
  let list = free.get(slab.length);
  if (list === undefined) free.set(slab.length, (list = []));
  list.push(slab);
  freeBytes += slab.length;
}

/** `slab`, from `takeSlab`, is no longer read by anyone but a reader holding entries across turns. */
export function giveSlab(slab: Buffer): void {
  if (readers > 0) quarantined.push(slab);
  else reuse(slab);
}

/**
 * For a reader that holds journal entries across turns of the event loop (verify's slices): no
 * buffer given back meanwhile is used again until it calls the function returned.
 */
export function holdSlabs(): () => void {
  readers++;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (--readers > 0) return;
    const waiting = quarantined;
    quarantined = [];
    for (const slab of waiting) reuse(slab);
  };
}

/** Bodies read straight into a slab behind the journal payload's opening `[`, by their bytes. */
const opened = new WeakMap<Buffer, Buffer>();
const OPENING = 0x5b;

/**
 * A large body's chunks copied into a slab as the journal keeps it, one byte after an opening `[`:
 * the journal then keeps that slab as it is (`openedSlab`), where it would copy the chunks again.
 * The bytes given back are the body's, in the slab.
 */
export function readIntoSlab(chunks: readonly Buffer[], bytes: number): Buffer {
  const slab = takeSlab(bytes + 1);
  slab[0] = OPENING;
  let at = 1;
  for (const chunk of chunks) at += chunk.copy(slab, at);
  const body = slab.subarray(1, 1 + bytes);
  opened.set(body, slab);
  return body;
}

/** The slab `body` was read into by `readIntoSlab`, once: whoever takes it gives it back. */
export function openedSlab(body: Buffer): Buffer | undefined {
  const slab = opened.get(body);
  opened.delete(body);
  return slab;
}
