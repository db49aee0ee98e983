// How the command sizes V8's heap. A server with a memory budget (--memory-limit) should hold about
// what is live: by default V8 lets the old generation grow to up to four times what its last full
// collection found live before it collects again, and large request bodies, made and dropped by the
// thousand, fill that room (the bench's hostile soak peaked at 466 MB of RSS with 100 MB live; 268
// MB with the heap held to 1.25 times, for the same CPU). A small heap may grow by a fixed room
// instead: held to 1.25 times a live heap of 30 MB, a coding agent's 126 KB requests (their bodies
// kept by the journal, which V8 counts toward the limit) paid a full collection every 60 requests,
// a quarter of a millisecond each.
//
// The young generation is held at the size it has as the command starts (two semi-spaces of 1 or 2
// MB). V8 doubles them up to 16 MB each under a burst's allocation, and a thousand paced streams
// opened at once then took 10-25 KB a stream more of RSS for that alone, at no saving in CPU. Only
// the flag that lets them grow can be set once the process runs (their largest size is read as it
// starts).
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';

const FLAG = '--heap-growing-percent';
/** The old generation may grow to 1.25 times what the last full collection found live... */
export const HEAP_GROWING_PERCENT = 25;
/** ...or by this much, whichever is more, up to twice what was live. */
export const HEAP_GROWING_ROOM = 32 * 1024 * 1024;

/** How far, in percent, the old generation may grow past `liveBytes` before its next full collection. */
export function growingPercent(liveBytes: number): number {
  const forRoom = Math.ceil((100 * HEAP_GROWING_ROOM) / Math.max(1, liveBytes));
  return Math.min(100, Math.max(HEAP_GROWING_PERCENT, forRoom));
}

/** V8's own values of the flags the command sets. */
const V8_DEFAULTS = [`${FLAG}=0`, '--semi-space-growth-factor=2'];

const YOUNG_FLAGS = ['--semi-space-growth-factor', '--max-semi-space-size', '--min-semi-space-size'];

/** Whether `execArgv` (node's own flags) sets one of `flags`, spelled with dashes or underscores. */
function given(execArgv: readonly string[], flags: readonly string[]): boolean {
  return execArgv.some((arg) => flags.some((flag) => arg.replaceAll('_', '-').startsWith(flag)));
}

/** Whether node was started with a heap growth of its own (`node --heap-growing-percent=N`): then it is left as it is. */
export function heapGrowthGiven(execArgv: readonly string[]): boolean {
  return given(execArgv, [FLAG]);
}

/** Whether node was started with a young generation of its own size: then it is left as it is. */
export function youngSizeGiven(execArgv: readonly string[]): boolean {
  return given(execArgv, YOUNG_FLAGS);
}

/**
 * Only for a process the mock owns (the command): a process that embeds the mock keeps its own
 * settings. The growth is set again after each full collection, from what it found live.
 */
export function boundHeapGrowth(): void {
  if (!youngSizeGiven(process.execArgv)) setFlagsFromString('--semi-space-growth-factor=1');
  if (heapGrowthGiven(process.execArgv)) return;
  let percent = growingPercent(getHeapStatistics().used_heap_size);
  setFlagsFromString(`${FLAG}=${percent}`);
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntries().some((entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) return;
    const next = growingPercent(getHeapStatistics().used_heap_size);
    if (next !== percent) setFlagsFromString(`${FLAG}=${(percent = next)}`);
  });
  observer.observe({ entryTypes: ['gc'] });
}

/** Sets back V8's own values of what `boundHeapGrowth` set (V8 stamps a code cache with its flags). */
export function restoreHeapFlags(): void {
  for (const flag of V8_DEFAULTS) setFlagsFromString(flag);
}
