// A thread's schedstat (Linux): the ns it has run on a core, the ns it was ready to run but
// waited in the run queue for one, and how many times it was given a core (its runs: each wake-up
// of a thread that slept in epoll is one). The harnesses read CPU from here, not from wall time, which a
// shared machine stretches.
import { readdirSync, readFileSync } from 'node:fs';

/** Thread `tid` of process `pid` (`'self'` for this one); the main thread by default. */
export function schedstat(pid, tid = pid) {
  const [onCpu, waiting, runs] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'latin1').split(' ').map(Number);
  return { onCpu, waiting, runs };
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
