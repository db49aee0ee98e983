// An unpaced stream's frames as UTF-8 bytes, made in one buffer. Taken as text, 1 KB sent a token at
// a time was a 60 KB string a stream: joined in V8's young generation (a quarter of a stream's
// allocation, and so of its scavenges), then measured and encoded again by the socket's write. A
// kept split's pieces have their JSON's bytes made once (piece-frames.ts), so a run of its chunks
// is copied into place within one buffer: the items' bytes and one `between` are put past the
// frames, then each frame is two copies inside the buffer, with no view and no string made.

/** A kept split's items as UTF-8 bytes: all of them, and where each ends. From `at` on, for a run that starts there. */
export interface KeptItems {
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
  readonly at: number;
}

/** A run of chunks framed together (piece-frames.ts): `items` with `between` between two, after `open` and before `close`. */
export interface JoinedFrames {
  readonly open: string;
  readonly items: readonly string[];
  readonly between: string;
  readonly close: string;
  readonly kept: KeptItems | undefined;
}

/** A UTF-16 unit is at most three bytes of UTF-8. */
const UTF8_MAX = 3;

/** The bytes of `run`'s items, and where they start in its split's. */
function itemBytes({ items, kept }: JoinedFrames & { kept: KeptItems }): [number, number] {
  const start = kept.at === 0 ? 0 : kept.ends[kept.at - 1]!;
  return [start, kept.ends[kept.at + items.length - 1]!];
}

/** At least the bytes `parts` take written by `writeBytes`, with the room a run's copies are made from; undefined when a run is not a kept split's. */
export function bytesBound(parts: readonly (string | JoinedFrames)[]): number | undefined {
  let size = 0;
  let source = 0;
  for (const part of parts) {
    if (typeof part === 'string') {
      size += UTF8_MAX * part.length;
      continue;
    }
    if (part.kept === undefined) return undefined;
    const [start, end] = itemBytes(part as JoinedFrames & { kept: KeptItems });
    const between = Buffer.byteLength(part.between);
    size += UTF8_MAX * (part.open.length + part.close.length) + (part.items.length - 1) * between + end - start;
    source = Math.max(source, end - start + between);
  }
  return size + source;
}

/** Below this many bytes a copy is made byte by byte: a token's few bytes cost less so than a call of `copyWithin`. */
const SHORT_COPY = 16;

/** Copies `into[from, to)` to `at` (the two never overlap here); where the copy ends. */
function copyInside(into: Buffer, at: number, from: number, to: number): number {
  if (to - from >= SHORT_COPY) {
    into.copyWithin(at, from, to);
    return at + to - from;
  }
  for (let i = from; i < to; i++) into[at++] = into[i]!;
  return at;
}

/** A run of a kept split's chunks framed into `into` at `at`; where they end. */
function writeRun(into: Buffer, at: number, run: JoinedFrames & { kept: KeptItems }): number {
  const [start, end] = itemBytes(run);
  // The run's items and its `between` go at the buffer's end, past where the frames can reach.
  const items = into.length - (end - start) - Buffer.byteLength(run.between);
  into.set(start === 0 && end === run.kept.bytes.length ? run.kept.bytes : run.kept.bytes.subarray(start, end), items);
  const between = items + (end - start);
  const betweenEnd = between + into.write(run.between, between);
  let next = at + into.write(run.open, at);
  const { ends, at: first } = run.kept;
  let from = items;
  for (let i = 0; i < run.items.length; i++) {
    if (i > 0) next = copyInside(into, next, between, betweenEnd);
    const to = items + ends[first + i]! - start;
    next = copyInside(into, next, from, to);
    from = to;
  }
  return next + into.write(run.close, next);
}

/** `parts` as UTF-8 bytes in `into` (at least `bytesBound(parts)` long): a view of its start. */
export function writeBytes(parts: readonly (string | JoinedFrames)[], into: Buffer): Buffer {
  let at = 0;
  for (const part of parts) at = typeof part === 'string' ? at + into.write(part, at) : writeRun(into, at, part as JoinedFrames & { kept: KeptItems });
  return into.subarray(0, at);
}
