// Where a stream fault strikes, counted in a stream's events: the writer's and a live socket's.
import { isSpan, type Fault, type StreamPart } from '../conversation/plan.js';

/** How many events a part stands for, and how many of them are content chunks. */
function sizes(part: StreamPart): [events: number, chunks: number] {
  if (!isSpan(part)) return [1, part.paced ? 1 : 0];
  return [part.pieces.length, part.paced ? part.pieces.length : 0];
}

/** How many content chunks a stream's events hold. */
export function chunkCount(parts: readonly StreamPart[]): number {
  let chunks = 0;
  for (const part of parts) chunks += sizes(part)[1];
  return chunks;
}

/**
 * Where a stream fault strikes: before the content chunk that follows `afterChunks` of them, or
 * right after the last chunk when the reply has fewer, so a faulted stream never completes.
 */
export function faultIndex(parts: readonly StreamPart[], afterChunks: number): number {
  let events = 0;
  let chunks = 0;
  let afterLastChunk = -1;
  for (const part of parts) {
    const [count, paced] = sizes(part);
    if (paced > 0) {
      if (afterChunks < chunks + paced) return events + (afterChunks - chunks);
      chunks += paced;
      afterLastChunk = events + count;
    }
    events += count;
  }
  return afterLastChunk >= 0 ? afterLastChunk : Math.max(0, events - 1);
}

/** The index of the event a stream fault strikes before (Infinity when none does): the writer's and a live socket's. */
export function strikeAt(parts: readonly StreamPart[], fault: Fault | undefined): number {
  if (!fault) return Infinity;
  if (fault.kind === 'cut_stream' || fault.kind === 'stream_error') return faultIndex(parts, fault.afterChunks);
  // A malformed stream breaks in the middle of its content.
  if (fault.kind === 'malformed') return faultIndex(parts, Math.floor(chunkCount(parts) / 2));
  return Infinity;
}
