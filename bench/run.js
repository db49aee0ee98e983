// `npm run bench`: builds, then measures the compiled mock against a bare node:http server and
// its goals, prints a table and writes the same figures to bench/results/latest.json.
// `node bench/run.js --quick` for short runs while developing; `--only streams,reload` for some phases
// (`hostile-soak`: malformed, oversized and chained traffic among ordinary requests).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { limitRow, formatTable, ratioRow } from './lib/report.js';
import { coldStart } from './phases/cold-start.js';
import { hostileSoak } from './phases/hostile-soak.js';
import { reload } from './phases/reload.js';
import { streams } from './phases/streams.js';
import { throughput } from './phases/throughput.js';

const PHASES = ['throughput', 'streams', 'reload', 'cold-start', 'hostile-soak'];
const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } } });
const only = values.only ? values.only.split(',') : PHASES;
for (const phase of only) if (!PHASES.includes(phase)) throw new Error(`unknown phase "${phase}"; phases: ${PHASES.join(', ')}`);

const settings = values.quick
  ? {
      throughput: { rounds: 1, warmup: 0.5, duration: 1, connections: 16 },
      streams: { streams: 1000, rounds: 1, warmup: 0.5, duration: 1, connections: 16 },
      reload: { writes: 5, fixtures: 10 },
      reloadLarge: { writes: 2, fixtures: 10_000 },
      coldStart: { runs: 2 },
      hostileSoak: { durationMs: 10_000, concurrency: 4, chainTurns: 100 },
    }
  : {
      throughput: { rounds: 3, warmup: 1, duration: 3, connections: 16 },
      streams: { streams: 1000, rounds: 2, warmup: 1, duration: 3, connections: 16 },
      reload: { writes: 20, fixtures: 10 },
      reloadLarge: { writes: 5, fixtures: 10_000 },
      coldStart: { runs: 5 },
      hostileSoak: { durationMs: 150_000, concurrency: 4, chainTurns: 400 },
    };

if (!existsSync(new URL('../dist/index.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` first (npm run bench does).');

const root = mkdtempSync(join(tmpdir(), 'mgm-bench-'));
const results = {};
const rows = [];
const startedAt = new Date();
const loadBefore = loadavg()[0];
const log = (line) => process.stderr.write(`${line}\n`);

try {
  if (only.includes('throughput')) {
    log('throughput: bare node:http, Koa alone, mock with 10 fixtures, mock with 10,000 fixtures...');
    const t = (results.throughput = await throughput(root, settings.throughput));
    rows.push(
      ratioRow('chat completion req/s, 10 fixtures', t.small.requestsPerSecond, t.bare.requestsPerSecond, '(bare)', { atLeast: 0.5 }),
      ratioRow('chat completion p99 ms, 10 fixtures', t.small.latencyP99Ms, t.bare.latencyP99Ms, '(bare)', { atMost: 2 }),
      limitRow('server CPU µs per request, 10 fixtures', t.small.cpuUsPerRequest, { baseline: t.bare.cpuUsPerRequest, baselineIs: '(bare)' }),
      limitRow('framework alone req/s (Koa+router+body)', t.koa.requestsPerSecond, { baseline: t.bare.requestsPerSecond, baselineIs: '(bare)' }),
      ratioRow('chat completion req/s, 10,000 fixtures', t.large.requestsPerSecond, t.small.requestsPerSecond, '(10 fx)', { atLeast: 0.8 }),
      limitRow('chat completion p99 ms, 10,000 fixtures', t.large.latencyP99Ms, { baseline: t.small.latencyP99Ms, baselineIs: '(10 fx)' }),
    );
  }
  if (only.includes('streams')) {
    log(`streams: ${settings.streams.streams} concurrent paced streams (mock, then bare), at once, then unpaced...`);
    const s = (results.streams = await streams(root, settings.streams));
    rows.push(
      limitRow(`event-loop lag p99 ms, ${s.paced.streams} paced streams`, s.paced.server.lagP99Ms, { below: 20, baseline: s.bare.lagP99Ms, baselineIs: '(bare)' }),
      limitRow(`peak RSS MB, ${s.paced.streams} paced streams`, s.peakRssMb, { below: 300, baseline: s.bare.server.peakRssMb, baselineIs: '(bare)' }),
      limitRow('server CPU µs per paced event', s.paced.cpuUsPerRequest / s.eventsPerStream, { baseline: s.bare.cpuUsPerRequest / s.eventsPerStream, baselineIs: '(bare)' }),
      limitRow(`paced stream duration p99 ms (exact: ${s.idealPacedMs})`, s.paced.latencyP99Ms, { baseline: s.bare.latencyP99Ms, baselineIs: '(bare)' }),
      limitRow(`lag max ms, ${s.paced.streams} streams asked at once`, s.burst.server.lagMaxMs),
      limitRow(`unpaced stream events/s (${s.eventsPerStream} per stream)`, s.unpaced.eventsPerSecond),
    );
  }
  if (only.includes('reload')) {
    log(`reload: ${settings.reload.writes} fixture writes, then ${settings.reloadLarge.writes} among 10,000 fixtures...`);
    const r = (results.reload = await reload(root, settings.reload));
    const large = (results.reloadLarge = await reload(root, settings.reloadLarge));
    rows.push(
      { ...limitRow('hot reload p50 ms, write to first answer', r.p50Ms, { below: 100 }), ...(r.missed > 0 ? { met: false } : {}) },
      limitRow('hot reload p50 ms, 10,000 fixtures', large.p50Ms),
    );
  }
  if (only.includes('cold-start')) {
    log(`cold start: ${settings.coldStart.runs} runs of node dist/cli.js...`);
    const c = (results.coldStart = await coldStart(settings.coldStart));
    rows.push(limitRow('cold start ms, spawn to "listening on"', c.medianMs, { below: 500, baseline: c.nodeMedianMs, baselineIs: '(node -e)' }));
  }
  if (only.includes('hostile-soak')) {
    log(`hostile soak: malformed, oversized and chained requests among ordinary ones, 1,000 sessions, ${settings.hostileSoak.durationMs / 1000} s...`);
    const h = (results.hostileSoak = await hostileSoak(root, settings.hostileSoak));
    rows.push(
      limitRow(`hostile soak RSS MB at the end (${h.requests} requests)`, h.rssMb, { below: 300 }),
      limitRow('hostile soak 5xx answers', h.serverErrors, { below: 1 }),
      limitRow('hostile soak longest request ms', h.maxMs, { below: 1000 }),
      limitRow(`hostile soak ordinary answers changed (of ${h.ordinary})`, h.changed, { below: 1 }),
      ratioRow(`previous_response_id chain: turn ${h.chain.turns + 1} ms vs turn 2 (medians of 40)`, h.chain.lastMs, h.chain.firstMs, '(first)', { atMost: 2 }),
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

const machine = { node: process.version, platform: `${process.platform} ${process.arch}`, cores: availableParallelism(), loadBefore, loadAfter: loadavg()[0] };
const table = formatTable(rows);
console.log(table);
// The load after the run counts the bench's own processes; the load before is everyone else's
// (and the build's, when npm run bench just built).
console.log(
  `\nnode ${machine.node}, ${machine.cores} cores, 1-minute load average ${machine.loadBefore.toFixed(1)} as the run started` +
    (machine.loadBefore > machine.cores ? ': other processes were busy, so absolute figures are low; the ratios hold better.' : '.'),
);
const out = new URL('./results/', import.meta.url);
mkdirSync(out, { recursive: true });
const report = { startedAt: startedAt.toISOString(), quick: values.quick, phases: only, machine, settings, rows, results };
writeFileSync(new URL('latest.json', out), `${JSON.stringify(report, null, 2)}\n`);
log(`written to bench/results/latest.json`);
