// `node bench/unpaced-threads.js --builds /path/a,/path/b[,aimock] [--pairs 5 --batches 12]`: the
// `peer-streams` workload (300 unpaced streams of the ~1 KB text at once, one connection each, the
// mock at the `info` log as the phase's first row) on fresh servers of two builds of the mock (each
// a checkout with its own built dist/), and aimock if named, in turn, the order swapped from pair
// to pair. Each server is checked with one stream, given one unmeasured batch (as the phase does),
// then `--batches` batches; around each its threads' CPU is read from /proc (`task/*/schedstat`, ns
// on a core), the main thread apart from the others (V8's compiler and collector helpers, libuv's
// pool) and the main thread's time in the kernel (`stat`'s stime), and the run's wall time to the
// last stream's end, with the part of it the main thread was ready but waited for a core
// (schedstat's run-queue time) and the part it was idle (neither running nor waiting: the rest).
// Prints every server's batches, then the medians of the paired ratios against the first build for
// the phase's batches (2-6 from a fresh server: the unmeasured one is batch 1) and the warm ones
// after them. `--node-flags '--trace-gc'` starts every server with those flags, `--log FILE` keeps
// the servers' output (their log lines, and what such flags print), each batch's start marked in
// it. `--profile cpu|heap` keeps a profile of each server's phase batches (2-6) in --profile-dir,
// one file a server, named by build index and pair. `--distinct` gives every stream a body never
// sent before (its own `user`), where the phase sends one body 300 times. Linux.
import { appendFileSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ask, buildsFrom, profilePath, startChild } from './lib/builds.js';
import { threadsOf as schedstatsOf } from './lib/schedstat.js';
import { median } from './lib/stats.js';
import { streamsAtOnce } from './lib/stream-client.js';
import { emptyScenarios, longStreamRequest, PEER_FIXTURES, writeFixtures } from './lib/workload.js';

const { values } = parseArgs({
  options: {
    builds: { type: 'string' },
    pairs: { type: 'string', default: '5' },
    batches: { type: 'string', default: '12' },
    streams: { type: 'string', default: '300' },
    'node-flags': { type: 'string', default: '' },
    log: { type: 'string' },
    profile: { type: 'string' },
    distinct: { type: 'boolean', default: false },
    'profile-dir': { type: 'string', default: 'bench/results' },
  },
});
const builds = buildsFrom(values.builds, 'aimock');
const pairs = Number(values.pairs);
const batches = Number(values.batches);
const streams = Number(values.streams);
const nodeFlags = values['node-flags'].split(' ').filter(Boolean);
/** The batches `peer-streams` measures on a fresh server (its first is unmeasured), and the warm ones after. */
const PHASE = [0, 5];
const WARM = [6, batches];

const root = mkdtempSync(join(tmpdir(), 'unpaced-threads-'));
const fixtures = join(root, 'fixtures');
writeFixtures(fixtures, 10);
const scenarios = emptyScenarios(root);
const same = longStreamRequest();
let asked = 0;
/** `--distinct`: every stream's body its own (a `user` never sent before), as a load test's varied prompts are; else the phase's one body. */
const body = values.distinct ? () => JSON.stringify({ ...JSON.parse(same), user: `client-${asked++}` }) : same;

function start(build) {
  const log = openSync(values.log ?? join(root, 'servers.log'), 'a');
  const message = build === 'aimock' ? { type: 'start', kind: 'aimock', fixtures: PEER_FIXTURES.aimock } : { type: 'start', kind: 'mock', options: { fixtures, scenarios, logLevel: 'info' } };
  const started = startChild(build, 'aimock', message, { execArgv: nodeFlags, stdout: log });
  closeSync(log);
  return started;
}

/**
 * ns on a core so far: the main thread's, and the other threads' by their name; and the ns the
 * main thread was ready to run but waited for a core (schedstat's second field).
 */
function threadsOf(pid) {
  const others = {};
  let main = 0;
  let mainWaited = 0;
  for (const { tid, onCpu, waiting } of schedstatsOf(pid)) {
    if (tid === pid) {
      main = onCpu;
      mainWaited = waiting;
      continue;
    }
    let name;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'latin1').trim();
    } catch {
      continue; // a thread that ended meanwhile
    }
    others[name] = (others[name] ?? 0) + onCpu;
  }
  return { main, mainWaited, mainKernel: kernelTicks(pid), others };
}

/** The main thread's ticks (1/100 s) in the kernel so far (`stat`'s stime): the system calls' part of its CPU, the sends' above all. */
function kernelTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'latin1');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[12]);
}

function spent(before, after) {
  const others = {};
  for (const [name, ns] of Object.entries(after.others)) others[name] = (ns - (before.others[name] ?? 0)) / 1000 / streams;
  const otherUs = Object.values(others).reduce((sum, us) => sum + us, 0);
  return { mainUs: (after.main - before.main) / 1000 / streams, kernelUs: ((after.mainKernel - before.mainKernel) * 10_000) / streams, otherUs, others, waitedMs: (after.mainWaited - before.mainWaited) / 1e6 };
}

async function fresh(build, profileFile) {
  const server = await start(build);
  try {
    await streamsAtOnce(server.url, body, 1);
    await streamsAtOnce(server.url, body, streams);
    const runs = [];
    for (let index = 0; index < batches; index++) {
      if (values.log) appendFileSync(values.log, `=== ${build} batch ${index + 2}\n`);
      if (profileFile && index === PHASE[0]) await ask(server, { type: 'profile', kind: values.profile, file: profileFile });
      const before = threadsOf(server.child.pid);
      const { wallMs } = await streamsAtOnce(server.url, body, streams);
      const run = spent(before, threadsOf(server.child.pid));
      // What is left of the batch's time when the main thread neither ran nor waited for a core: it had nothing to do.
      runs.push({ ...run, wallMs, idleMs: wallMs - (run.mainUs * streams) / 1000 - run.waitedMs });
      if (profileFile && index === PHASE[1] - 1) await ask(server, { type: 'profile' });
    }
    return runs;
  } finally {
    server.child.kill('SIGKILL');
  }
}

const load = () => readFileSync('/proc/loadavg', 'latin1').split(' ')[0];
const sum = (runs, [from, to], pick) => runs.slice(from, to).reduce((total, run) => total + pick(run), 0) / (to - from);
const results = builds.map(() => []);
try {
  for (let pair = 0; pair < pairs; pair++) {
    const order = builds.map((_, index) => index);
    if (pair % 2 === 1) order.reverse();
    for (const index of order) {
      const profileFile = values.profile && builds[index] !== 'aimock' && profilePath(values['profile-dir'], 'unpaced-threads', values.profile, index, pair);
      results[index][pair] = await fresh(builds[index], profileFile);
    }
    console.log(`pair ${pair + 1} (load ${load()})`);
    builds.forEach((build, index) => {
      const runs = results[index][pair];
      console.log(`  ${build}: ${runs.map((run) => `${run.mainUs.toFixed(0)}+${run.otherUs.toFixed(0)}`).join(' ')} µs; wall ${runs.map((run) => run.wallMs.toFixed(0)).join(' ')} ms, of it waiting for a core ${runs.map((run) => run.waitedMs.toFixed(0)).join(' ')} ms, idle ${runs.map((run) => run.idleMs.toFixed(0)).join(' ')} ms`);
      const names = Object.keys(runs[0].others).sort();
      console.log(`    others, phase / warm: ${names.map((name) => `${name} ${sum(runs, PHASE, (run) => run.others[name] ?? 0).toFixed(0)}/${sum(runs, WARM, (run) => run.others[name] ?? 0).toFixed(0)}`).join(', ')}`);
    });
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

const row = (name, span, pick) => {
  const cells = builds.map((_, index) => median(results[index].map((runs) => sum(runs, span, pick))));
  const ratios = builds.slice(1).map((_, index) => {
    const paired = results[index + 1].map((runs, pair) => sum(runs, span, pick) / sum(results[0][pair], span, pick));
    return `${median(paired).toFixed(3)} [${Math.min(...paired).toFixed(2)}-${Math.max(...paired).toFixed(2)}] (lower in ${paired.filter((ratio) => ratio < 1).length} of ${paired.length})`;
  });
  console.log(`${name}: medians ${cells.map((cell) => cell.toFixed(0)).join(' / ')}; against the first: ${ratios.join(', ')}`);
};
for (const [label, span] of [
  ['phase (batches 2-6)', PHASE],
  ['warm (batches 8-)', WARM],
]) {
  row(`${label}, µs a stream, main thread`, span, (run) => run.mainUs);
  row(`${label}, µs a stream, main thread in the kernel`, span, (run) => run.kernelUs);
  row(`${label}, µs a stream, other threads`, span, (run) => run.otherUs);
  row(`${label}, µs a stream, all threads`, span, (run) => run.mainUs + run.otherUs);
  row(`${label}, wall ms a batch`, span, (run) => run.wallMs);
  row(`${label}, ms a batch the main thread waited for a core`, span, (run) => run.waitedMs);
  row(`${label}, ms a batch the main thread was idle`, span, (run) => run.idleMs);
}
