// `node bench/lag-waves.js --builds /path/a,/path/b [--pairs 6 --streams 1000]`: the streams
// phase's event-loop lag row (`event-loop lag p99 ms, 1000 paced streams`), two builds side by
// side. Each pair starts one fresh server of each build, the order swapped from pair to pair; each
// streams once paced (as the phase's `onFresh` does), then is asked the phase's 1,000
// realistic-paced streams in 10 waves 50 ms apart, and reports its own lag (a 10 ms timer's
// lateness, p50, p99 and the most), its main thread's longest turn in CPU (`watchTurns`) and its
// CPU a stream, with the client's headers and duration p99, and where the duration's p99 was lost:
// the first token's p99 (nominal 350 ms), the p99 from it to the end (nominal 1,590 ms) and the
// median first token of the slowest 1 % (`slowestFirst`), and each wave's own headers p99 (waves
// held together read alike), how many waves were let go on their own, and the 1-minute load and
// the host's sockets in TIME_WAIT as each server started (`--pause-s` waits before each). Prints
// every pair and the medians of the paired ratios (each build against the first).
// `--profile-dir DIR` keeps a CPU profile (with `--profile-kind heap`, a heap profile) of each
// server's waves there, with the stalls its server named beside it
// (`.stalls.json`, on the profile's clock; `BENCH_STALL_MS=20` names every turn past the lag row's
// bound). A build named `bare` is the streams phase's bare pacer (lib/baselines.js `bareSse`)
// writing the mock's own bytes, sampled from the first build, at the realistic pacing: what is
// left of a stream with no mock in it. Linux.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { ask, buildsFrom, profilePath, startChild } from './lib/builds.js';
import { sampleReply } from './lib/client.js';
import { streamsInWaves } from './lib/stream-client.js';
import { median } from './lib/stats.js';
import { emptyScenarios, streamRequest, writeFixtures } from './lib/workload.js';

const { values } = parseArgs({
  options: {
    builds: { type: 'string' },
    pairs: { type: 'string', default: '6' },
    streams: { type: 'string', default: '1000' },
    // A directory to keep a CPU profile (100 µs) of each server's waves in, to find its long turns.
    'profile-dir': { type: 'string' },
    // `heap`: the profiles kept are of what the waves allocate (V8's sampling heap profiler), not of their CPU.
    'profile-kind': { type: 'string', default: 'cpu' },
    // Seconds to wait before each server starts, so a run does not follow the last one's load at once.
    'pause-s': { type: 'string', default: '0' },
  },
});
const builds = buildsFrom(values.builds, 'bare');
if (builds[0] === 'bare') throw new Error('--builds: name a build of the mock first; `bare` paces its bytes');
const pairs = Number(values.pairs);
const REALISTIC = { 'x-mock-latency': 'realistic' };

/** TCP sockets in TIME_WAIT on this host (IPv4), from /proc/net/tcp's state column (06). */
function timeWaitSockets() {
  return readFileSync('/proc/net/tcp', 'latin1').split('\n').filter((line) => line.split(/\s+/)[4] === '06').length;
}

const root = mkdtempSync(join(tmpdir(), 'lag-waves-'));
const fixtures = join(root, 'fixtures');
writeFixtures(fixtures, 10);
const scenarios = emptyScenarios(root);
const body = streamRequest();
/** The bare pacer's bytes and pacing, from the first build that is the mock's: set at its first start. */
let bare;

async function fresh(build, profileFile) {
  await sleep(1000 * Number(values['pause-s']));
  const before = { load: loadavg()[0], timeWait: timeWaitSockets() };
  const start = build === 'bare' ? { type: 'start', ...bare, watchTurns: true } : { type: 'start', kind: 'mock', options: { fixtures, scenarios }, watchTurns: true };
  const { child, url } = await startChild(build, 'bare', start);
  const server = { child };
  try {
    const sample = await sampleReply(url, body, 'data: [DONE]', REALISTIC);
    if (bare === undefined && build !== 'bare') {
      const { REALISTIC: pacing } = await import(join(build, 'dist/exchange/pacing.js'));
      bare = { kind: 'bare-sse', body: sample, pacing };
    }
    await ask(server, { type: 'reset' });
    if (profileFile) await ask(server, { type: 'profile', kind: values['profile-kind'], file: profileFile });
    const load = await streamsInWaves(url, body, { streams: Number(values.streams), waves: 10, gapMs: 50, headers: REALISTIC });
    if (profileFile) await ask(server, { type: 'profile' });
    const own = await ask(server, { type: 'stats' });
    if (profileFile) writeFileSync(`${profileFile}.stalls.json`, JSON.stringify(own.stalls));
    return {
      lagP50: own.lagP50Ms,
      lagP99: own.lagP99Ms,
      lagMax: own.lagMaxMs,
      turnCpuMax: own.turnCpuMaxMs,
      cpuUs: (1000 * own.cpuMs) / load.completed,
      headersP99: load.headersP99Ms,
      durationP99: load.latencyP99Ms,
      firstTokenP99: load.firstTokenP99Ms,
      afterFirstP99: load.afterFirstTokenP99Ms,
      slowestFirst: load.slowestFirstTokenMs,
      byWave: load.headersP99ByWaveMs,
      apart: load.wavesApart,
      ...before,
    };
  } finally {
    child.send({ type: 'stop' });
    await new Promise((done) => child.once('exit', done));
  }
}

const FIGURES = ['lagP50', 'lagP99', 'lagMax', 'turnCpuMax', 'cpuUs', 'headersP99', 'durationP99', 'firstTokenP99', 'afterFirstP99', 'slowestFirst'];
const all = builds.map(() => []);
for (let pair = 0; pair < pairs; pair++) {
  const order = pair % 2 === 0 ? builds.map((_, index) => index) : builds.map((_, index) => builds.length - 1 - index);
  const load = loadavg()[0].toFixed(2);
  for (const index of order) {
    const profileFile = values['profile-dir'] && profilePath(values['profile-dir'], 'lag-waves', values['profile-kind'], index, pair);
    all[index].push(await fresh(builds[index], profileFile));
  }
  const line = builds.map((_, index) => FIGURES.map((key) => all[index][pair][key].toFixed(1)).join(' ')).join('  ||  ');
  console.log(`pair ${pair + 1} (load ${load}): ${line}`);
  // Waves with alike figures were one hold: their requests waited for the last of their connections.
  console.log(`  headers p99 by wave: ${builds.map((_, index) => all[index][pair].byWave.map((ms) => ms.toFixed(0)).join(' ')).join('  ||  ')}`);
  const apart = (run) => `${run.apart} apart (load ${run.load.toFixed(2)}, time-wait ${run.timeWait})`;
  console.log(`  waves let go on their own: ${builds.map((_, index) => apart(all[index][pair])).join('  ||  ')}`);
}
console.log(`figures: ${FIGURES.join(' ')}`);
for (const key of FIGURES) {
  const medians = all.map((runs) => median(runs.map((run) => run[key])).toFixed(1));
  const ratios = all.slice(1).map((runs) => {
    const paired = runs.map((run, pair) => run[key] / all[0][pair][key]);
    return `${median(paired).toFixed(3)} (lower in ${paired.filter((ratio) => ratio < 1).length} of ${pairs})`;
  });
  console.log(`${key}: medians ${medians.join(' / ')}; against the first: ${ratios.join(', ')}`);
}
