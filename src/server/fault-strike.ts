// Where a stream fault strikes, counted in a stream's events: the writer's and a live socket's.
import type { Fault, StreamEvent } from '../conversation/plan.js';

/**
 * Where a stream fault strikes: before the content chunk that follows `afterChunks` of them, or
 * right after the last chunk when the reply has fewer, so a faulted stream never completes.
 */
export function faultIndex(events: readonly StreamEvent[], afterChunks: number): number {
  let chunks = 0;
  let afterLastChunk = -1;
  for (let i = 0; i < events.length; i++) {
    if (!events[i]!.paced) continue;
    if (chunks === afterChunks) return i;
    chunks++;
    afterLastChunk = i + 1;
  }
  return afterLastChunk >= 0 ? afterLastChunk : Math.max(0, events.length - 1);
}

/** The index of the event a stream fault strikes before (Infinity when none does): the writer's and a live socket's. */
export function strikeAt(events: readonly StreamEvent[], fault: Fault | undefined): number {
  if (!fault) return Infinity;
  if (fault.kind === 'cut_stream' || fault.kind === 'stream_error') return faultIndex(events, fault.afterChunks);
  // A malformed stream breaks in the middle of its content.
  if (fault.kind === 'malformed') return faultIndex(events, Math.floor(events.filter((e) => e.paced).length / 2));
  return Infinity;
}
