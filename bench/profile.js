// `npm run bench:profile [-- --workload hit|paced --fixtures 10000 --seconds 5 --top 25]`: the mock
// under autocannon load, run with `node --cpu-prof`; prints where the time went and keeps the
// profile in bench/results/ for Chrome DevTools (Performance tab, "Load profile").
//   hit    non-stream chat completions on a fixture hit (the last of `--fixtures`), for `--seconds`
//   paced  1,000 concurrent streams with realistic pacing, held to completion
//   unpaced  the ~1 KB stream the peers are compared on, unpaced, for `--seconds`
//   agent  a coding agent's request (100 KB system prompt, 25 tools) on /v1/messages, for `--seconds`
// The profiler samples wall time: on a busy machine a system call the process was descheduled in
// (writev) looks longer than it is. `npm run bench` reports CPU time, which does not drift so.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { summarize } from './lib/cpuprofile.js';
import { fire } from './lib/load.js';
import { agentBodies, FIXTURE as AGENT_FIXTURE, MESSAGE_HEADERS, PATH as MESSAGES_PATH } from './phases/agent-prompt.js';
import { startServer } from './lib/servers.js';
import { emptyScenarios, longStreamRequest, streamRequest, ticketRequests, writeFixtures } from './lib/workload.js';

const { values } = parseArgs({
  options: {
    workload: { type: 'string', default: 'hit' },
    fixtures: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    top: { type: 'string', default: '25' },
    // The mock's log level; a level that logs writes to a file, as the throughput rows' server does.
    'log-level': { type: 'string', default: 'silent' },
  },
});
const fixtures = Number(values.fixtures);
const seconds = Math.min(60, Number(values.seconds));
const connections = Number(values.connections);
const top = Number(values.top);
const STREAMS = 1000;

const workloads = {
  hit: {
    unit: 'req',
    body: ticketRequests(fixtures - 1),
    warmup: { connections, duration: 1 },
    measured: { connections, duration: seconds },
  },
  paced: {
    unit: 'stream',
    body: streamRequest(),
    warmup: { connections, duration: 1 },
    measured: { connections: STREAMS, amount: STREAMS, headers: { 'x-mock-latency': 'realistic' } },
  },
  unpaced: {
    unit: 'stream',
    body: longStreamRequest(),
    warmup: { connections, duration: 1 },
    measured: { connections, duration: seconds },
  },
  agent: {
    unit: 'req',
    body: agentBodies(),
    fixture: AGENT_FIXTURE,
    warmup: { connections, duration: 1, path: MESSAGES_PATH, headers: MESSAGE_HEADERS },
    measured: { connections, duration: seconds, path: MESSAGES_PATH, headers: MESSAGE_HEADERS },
  },
};
const workload = workloads[values.workload];
if (!workload) throw new Error(`unknown workload "${values.workload}"; workloads: ${Object.keys(workloads).join(', ')}`);

const root = mkdtempSync(join(tmpdir(), 'mgm-profile-'));
const results = new URL('./results/', import.meta.url).pathname;
try {
  writeFixtures(join(root, 'fixtures'), fixtures);
  if (workload.fixture) writeFileSync(join(root, 'fixtures', 'workload.yaml'), workload.fixture);
  const mock = await startServer(
    { kind: 'mock', options: { fixtures: join(root, 'fixtures'), scenarios: emptyScenarios(root), logLevel: values['log-level'] } },
    { execArgv: ['--cpu-prof', '--cpu-prof-dir', join(root, 'profile')], logFile: join(root, 'server.log') },
  );
  let load;
  let fromUs;
  let toUs;
  try {
    await fire(mock.url, workload.body, workload.warmup);
    ({ markUs: fromUs } = await mock.reset());
    load = await fire(mock.url, workload.body, workload.measured);
    ({ markUs: toUs } = await mock.reset());
  } finally {
    await mock.stop();
  }
  const [file] = readdirSync(join(root, 'profile'));
  mkdirSync(results, { recursive: true });
  const kept = join(results, `${values.workload}-${fixtures}.cpuprofile`);
  copyFileSync(join(root, 'profile', file), kept);

  const summary = summarize(kept, fromUs, toUs);
  const share = (ms) => `${((100 * ms) / summary.totalMs).toFixed(1).padStart(5)}%`;
  const perUnit = (ms) => `${((1000 * ms) / (load.completed || 1)).toFixed(1).padStart(7)} µs/${workload.unit}`;
  console.log(`${load.completed} ${workload.unit}s in ${load.durationS} s (${Math.round(load.requestsPerSecond)}/s), ${fixtures} fixtures; profile: ${kept}`);
  console.log('(startup and a 1 s warmup are left out)\n');
  console.log('self time by package or file:');
  for (const { owner, selfMs } of summary.owners.slice(0, 15)) console.log(`  ${share(selfMs)} ${perUnit(selfMs)}  ${owner}`);
  console.log('\nfunctions by self time:');
  for (const f of summary.functions.slice(0, top)) console.log(`  ${share(f.selfMs)} ${perUnit(f.selfMs)}  ${f.label}`);
  console.log('\nfunctions by total time (self + callees):');
  for (const f of summary.byTotal.slice(0, top)) console.log(`  ${share(f.totalMs)} ${perUnit(f.totalMs)}  ${f.label}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
