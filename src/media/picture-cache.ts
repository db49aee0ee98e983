// Pictures rendered lately, by what decides their bytes (format, quality, size, seed): the same
// prompt at the same size is the same picture, so asking for it again costs nothing, and the
// sessions that keep it (a suite's workers each asking for the same picture) share one copy.

/** What is remembered: a picture, of which only its bytes matter here. */
interface Picture {
  readonly data: Uint8Array;
}

/** A few recent pictures, at most this many bytes in all; a larger one is not remembered. */
const MAX_PICTURES = 16;
const MAX_BYTES = 16 * 1024 * 1024;

const recent = new Map<string, Picture>();
let bytes = 0;

/** The picture made for `key` before, or `make`'s, remembered. Pictures are never changed once made. */
export async function rendered<P extends Picture>(key: string, make: () => Promise<P>): Promise<P> {
  return (recall(key) as P | undefined) ?? remember(key, await make());
}

/** `rendered` for a picture made at once. */
export function renderedNow<P extends Picture>(key: string, make: () => P): P {
  return (recall(key) as P | undefined) ?? remember(key, make());
}

function recall(key: string): Picture | undefined {
  const known = recent.get(key);
  if (known) {
    // Map order is the order of use: the oldest goes first.
    recent.delete(key);
    recent.set(key, known);
  }
  return known;
}

function remember<P extends Picture>(key: string, picture: P): P {
  const size = picture.data.byteLength;
  if (size > MAX_BYTES || recent.has(key)) return picture;
  recent.set(key, picture);
  bytes += size;
  for (const [oldKey, old] of recent) {
    if (recent.size <= MAX_PICTURES && bytes <= MAX_BYTES) break;
    recent.delete(oldKey);
    bytes -= old.data.byteLength;
  }
  return picture;
}
