// How the command sizes V8's heap. A server with a memory budget (--memory-limit) should hold about
// what is live: by default V8 lets the old generation grow to up to four times what its last full
// collection found live before it collects again, and large request bodies, made and dropped by the
// thousand, fill that room (the bench's hostile soak peaked at 466 MB of RSS with 100 MB live; 268
// MB with the heap held to 1.25 times, for the same CPU).
import { setFlagsFromString } from 'node:v8';

const FLAG = '--heap-growing-percent';
/** The old generation may grow to 1.25 times what the last full collection found live. */
export const HEAP_GROWING_PERCENT = 25;

/** Whether node was started with a heap growth of its own (`node --heap-growing-percent=N`): then it is left as it is. */
export function heapGrowthGiven(execArgv: readonly string[]): boolean {
  return execArgv.some((flag) => flag.replaceAll('_', '-').startsWith(FLAG));
}

/** Only for a process the mock owns (the command): a process that embeds the mock keeps its own settings. */
export function boundHeapGrowth(): void {
  if (!heapGrowthGiven(process.execArgv)) setFlagsFromString(`${FLAG}=${HEAP_GROWING_PERCENT}`);
}
