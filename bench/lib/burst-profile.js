// `--node-flags "--import=<checkout>/bench/lib/burst-profile.js"` for bench/first-burst.js: a
// profile of a server's first burst alone, from its first SIGUSR2 to its second (the parent sends
// them around the burst, up to 300 ms after the last headers, before the clients leave), written
// to BURST_PROFILE_DIR (default: the working directory). BURST_PROFILE=heap (the default) is V8's
// sampling heap profiler counting what the collector took too, so it gives what a request
// allocates, not only what it keeps (`.heapprofile`); BURST_PROFILE=cpu is the CPU profiler at
// 100 µs (`.cpuprofile`).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const cpu = process.env.BURST_PROFILE === 'cpu';
const session = new Session();
session.connect();
let signals = 0;

function write(error, result) {
  if (error) throw error;
  const name = `first-burst-${process.pid}.${cpu ? 'cpuprofile' : 'heapprofile'}`;
  writeFileSync(join(process.env.BURST_PROFILE_DIR ?? '.', name), JSON.stringify(result.profile));
}

process.on('SIGUSR2', () => {
  signals += 1;
  if (signals === 1 && cpu) {
    session.post('Profiler.enable');
    session.post('Profiler.setSamplingInterval', { interval: 100 });
    session.post('Profiler.start');
  } else if (signals === 1) {
    session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  } else if (signals === 2) {
    session.post(cpu ? 'Profiler.stop' : 'HeapProfiler.stopSampling', write);
  }
});
