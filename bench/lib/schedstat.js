// A thread's schedstat (Linux): the ns it has run on a core and the ns it was ready to run but
// waited in the run queue for one. The harnesses read CPU from here, not from wall time, which a
// shared machine stretches.
import { readdirSync, readFileSync } from 'node:fs';

/** Thread `tid` of process `pid` (`'self'` for this one); the main thread by default. */
export function schedstat(pid, tid = pid) {
  const [onCpu, waiting] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'latin1').split(' ').map(Number);
  return { onCpu, waiting };
}

/** Every thread of `pid` with its schedstat; one that ended between the listing and its read is left out. */
export function threadsOf(pid) {
  const threads = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.push({ tid: Number(tid), ...schedstat(pid, tid) });
    } catch {
      // a thread that ended meanwhile
    }
  }
  return threads;
}

/** All of `pid`'s threads' ns on a core so far. */
export function allThreadsNs(pid) {
  return threadsOf(pid).reduce((sum, thread) => sum + thread.onCpu, 0);
}
