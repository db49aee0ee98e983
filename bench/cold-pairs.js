// `node bench/cold-pairs.js --builds /path/a,/path/b[,aimock] [--pairs 20]`: the cold-start
// phase's first answer, paired. Each round starts one fresh server of every build (each a checkout
// with its own built dist/, as `node dist/cli.js --port 0` from that checkout; `aimock` is the peer
// with the bench's fixture file), the order rotated each round so that a burst of other load falls
// on all alike, and asks each, at its listening line, the cold-start phase's fixture hit. Per start:
// the wall time from spawn to the listening line and to the first 200, the server's CPU at both (all
// threads and the main thread, schedstat from /proc) and its minor faults. Prints the medians and,
// for each build after the first, the median of its paired differences with their quartiles.
// A build written `checkout@bin` is started from that file instead of dist/cli.js.
// `--cpu-prof DIR` hands the mock's servers `--cpu-prof` (100 µs), one profile a start in DIR.
// Linux.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildsFrom } from './lib/builds.js';
import { startToFirstAnswer } from './phases/cold-start.js';
import { percentile, median } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    builds: { type: 'string' },
    pairs: { type: 'string', default: '20' },
    'cpu-prof': { type: 'string' },
    args: { type: 'string', default: '' },
  },
});
const builds = buildsFrom(values.builds, 'aimock');
const pairs = Number(values.pairs);
const extraArgs = values.args ? values.args.split(' ') : [];

/** The minor faults of `pid` so far (field 10 of /proc/PID/stat). */
function minorFaults(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
}

/** `checkout` or `checkout@bin`: the file under the checkout that starts it (`dist/cli.js` unless told). */
function contenderOf(build) {
  if (build === 'aimock') return { contender: 'aimockFirstAnswer' };
  const [checkout, bin = 'dist/cli.js'] = build.split('@');
  const profile = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', values['cpu-prof']] : [];
  return { cwd: checkout, args: [...profile, join(checkout, bin), '--port', '0', ...extraArgs] };
}

const FIELDS = ['listenMs', 'answerMs', 'cpuListenMs', 'cpuAnswerMs', 'mainListenMs', 'mainAnswerMs', 'faultsListen', 'faultsAnswer'];
/** From the listening line to the first answer: what the first request's own path costs a fresh process. */
const AFTER_LISTENING = { answerMs: 'listenMs', cpuAnswerMs: 'cpuListenMs', mainAnswerMs: 'mainListenMs', faultsAnswer: 'faultsListen' };
const ALL_FIELDS = [...FIELDS, ...Object.keys(AFTER_LISTENING).map((field) => `${field}-after`)];
const samples = builds.map(() => Object.fromEntries(ALL_FIELDS.map((field) => [field, []])));
const loads = [loadavg()[0]];

for (let round = 0; round < pairs; round++) {
  for (let step = 0; step < builds.length; step++) {
    const index = (round + step) % builds.length;
    const start = await startToFirstAnswer({ ...contenderOf(builds[index]), faults: minorFaults });
    for (const field of FIELDS) samples[index][field].push(start[field]);
    for (const [field, from] of Object.entries(AFTER_LISTENING)) samples[index][`${field}-after`].push(start[field] - start[from]);
  }
  loads.push(loadavg()[0]);
}

const fmt = (value) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
const quartiles = (list) => `${fmt(median(list))} [${fmt(percentile(list, 25))} .. ${fmt(percentile(list, 75))}]`;
console.log(`${pairs} rounds, ${cpus().length} cores, 1-minute load ${loads[0].toFixed(1)} -> ${loads.at(-1).toFixed(1)} (median ${median(loads).toFixed(1)})`);
for (const field of ALL_FIELDS) {
  const row = builds.map((build, index) => `${build.split('/').at(-1)} ${fmt(median(samples[index][field]))}`);
  const diffs = builds.slice(1).map((_, at) => {
    const list = samples[at + 1][field].map((value, round) => value - samples[0][field][round]);
    return `diff ${quartiles(list)}`;
  });
  console.log(`${field.padEnd(18)} ${row.join('  ')}  ${diffs.join('  ')}`);
}
