// `npm run bench`: builds, then measures the compiled mock against its peers (aimock, mock-llm),
// a bare node:http server and its goals, prints a table and writes the same figures to bench/results/latest.json.
// `BENCH_QUICK=1 npm run bench` (or `node bench/run.js --quick`) for a smoke run of about half a
// minute; `--only streams,reload` for some phases; `--cpu-prof` profiles every mock and prints
// each event-loop stall over 100 ms it reported, with the functions that took the time.
// (`hostile-soak`: malformed, oversized and chained traffic among ordinary requests;
// `hostile-sockets`: a watcher that stops reading, a 300 MB relay, bodies over keep-alive;
// `hostile-doors`: each finding of the doors' red team, as the bounded request it now is).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { summarize } from './lib/cpuprofile.js';
import { formatTable, limitRow, ratioRow } from './lib/report.js';
import { agentPromptRows, coldStartRows, doorRows, latencyProfileRows, peerStreamRows, realtimeRows, reloadRows, streamRows, throughputRows } from './lib/rows.js';
import { profileMocksInto, stallsOfProfiledMocks } from './lib/servers.js';
import { audio, SPEECH_FORMATS } from './phases/audio.js';
import { coldStart } from './phases/cold-start.js';
import { drift } from './phases/drift.js';
import { agentPrompt } from './phases/agent-prompt.js';
import { otherDoors } from './phases/doors.js';
import { peerStreams } from './phases/peer-streams.js';
import { hostileDoors } from './phases/hostile-doors.js';
import { hostileSockets } from './phases/hostile-sockets.js';
import { batch } from './phases/batch.js';
import { hostileSoak } from './phases/hostile-soak.js';
import { relay } from './phases/relay.js';
import { realtime } from './phases/realtime.js';
import { reload } from './phases/reload.js';
import { streams } from './phases/streams.js';
import { latencyProfile } from './phases/latency-profile.js';
import { throughput } from './phases/throughput.js';
import { verifyPhase } from './phases/verify.js';

// The hostile phases' RSS goal is the mock's memory budget (--memory-limit, 128 MB by default)
// plus a constant: the mock at rest once each kind of request was made (about 170 MB) and V8's
// room above what is live (its young generation, a quarter of the old: src/heap.ts); with the
// socket cases also the large bodies at work (16 MB, a few copies each), an 8 MB watcher backlog
// and 300 sockets' buffers (bench/README.md).
const MEMORY_BUDGET_MB = 128;
const RSS_BEYOND_BUDGET_MB = { soak: 240, sockets: 272, doors: 272 };

const PHASES = ['throughput', 'agent-prompt', 'peer-streams', 'streams', 'latency-profile', 'realtime', 'reload', 'cold-start', 'relay', 'doors', 'drift', 'hostile-soak', 'hostile-sockets', 'hostile-doors', 'verify', 'audio', 'batch'];
const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, only: { type: 'string' }, 'cpu-prof': { type: 'boolean', default: false } } });
const quick = values.quick || process.env.BENCH_QUICK === '1';
const only = values.only ? values.only.split(',') : PHASES;
for (const phase of only) if (!PHASES.includes(phase)) throw new Error(`unknown phase "${phase}"; phases: ${PHASES.join(', ')}`);

const settings = quick
  ? {
      throughput: { rounds: 1, warmup: 0.3, duration: 1, connections: 32 },
      agentPrompt: { rounds: 1, warmup: 0.3, duration: 1, connections: 8 },
      peerStreams: { streams: 300, rounds: 1 },
      streams: { streams: 300, rounds: 1, warmup: 0.3, duration: 1, connections: 16 },
      latencyProfile: { streams: 300 },
      realtime: { sessions: 30 },
      reload: { writes: 3, fixtures: 10 },
      reloadLarge: { writes: 1, fixtures: 10_000 },
      coldStart: { runs: 1 },
      hostileSoak: { durationMs: 10_000, concurrency: 4, chainTurns: 100 },
      hostileSockets: { watchedRequests: 40, relayMb: 100, sessions: 20, requestsPerSession: 5 },
      relay: { rounds: 3 },
      doors: { batches: 2, rounds: 1, warmup: 0.3, duration: 1, connections: 32 },
      drift: { turns: 500, runs: 1 },
      verify: { rounds: 5 },
      audio: { rounds: 2 },
      batch: { lines: 10_000 },
    }
  : {
      throughput: { rounds: 3, warmup: 1, duration: 3, connections: 32 },
      agentPrompt: { rounds: 3, warmup: 1, duration: 3, connections: 8 },
      peerStreams: { streams: 300, rounds: 5 },
      streams: { streams: 1000, rounds: 2, warmup: 1, duration: 3, connections: 16 },
      latencyProfile: { streams: 1000 },
      realtime: { sessions: 100 },
      reload: { writes: 20, fixtures: 10 },
      reloadLarge: { writes: 5, fixtures: 10_000 },
      coldStart: { runs: 5 },
      hostileSoak: { durationMs: 150_000, concurrency: 4, chainTurns: 400 },
      hostileSockets: { watchedRequests: 100, relayMb: 300, sessions: 300, requestsPerSession: 10 },
      relay: { rounds: 10 },
      doors: { batches: 5, rounds: 3, warmup: 1, duration: 3, connections: 32 },
      drift: { turns: 500, runs: 3 },
      verify: { rounds: 20 },
      audio: { rounds: 5 },
      batch: { lines: 10_000 },
    };

if (!existsSync(new URL('../dist/index.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` first (npm run bench does).');

const root = mkdtempSync(join(tmpdir(), 'mgm-bench-'));
const results = {};
const rows = [];
const startedAt = new Date();
const loadBefore = loadavg()[0];
const profiles = values['cpu-prof'] ? fileURLToPath(new URL(`./results/profiles-${startedAt.toISOString().replaceAll(':', '-')}/`, import.meta.url)) : undefined;
if (profiles) profileMocksInto(profiles);
const log = (line) => process.stderr.write(`[${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s] ${line}\n`);

try {
  if (only.includes('throughput')) {
    log(`throughput, ${settings.throughput.connections} connections: bare node:http, Koa alone, the mock (info, silent, 10,000 fixtures), aimock, mock-llm...`);
    results.throughput = await throughput(root, settings.throughput);
    rows.push(...throughputRows(results.throughput));
  }
  if (only.includes('agent-prompt')) {
    log(`agent prompt, ${settings.agentPrompt.connections} connections: a 100 KB system prompt with 25 tools on /v1/messages, a short request, bare node:http reading the same body...`);
    results.agentPrompt = await agentPrompt(root, settings.agentPrompt);
    rows.push(...agentPromptRows(results.agentPrompt));
  }
  if (only.includes('peer-streams')) {
    log(`peer streams: ${settings.peerStreams.streams} unpaced streams of 1 KB at once, the mock (info, silent), aimock, mock-llm...`);
    results.peerStreams = await peerStreams(root, settings.peerStreams);
    rows.push(...peerStreamRows(results.peerStreams));
  }
  if (only.includes('streams')) {
    log(`streams: ${settings.streams.streams} concurrent paced streams (mock, aimock, bare, alternating), at once, then unpaced...`);
    results.streams = await streams(root, settings.streams);
    rows.push(...streamRows(results.streams));
  }
  if (only.includes('latency-profile')) {
    log(`latency profile: ${settings.latencyProfile.streams} paced streams of a model with a latency profile, time to first token...`);
    results.latencyProfile = await latencyProfile(root, settings.latencyProfile);
    rows.push(...latencyProfileRows(results.latencyProfile));
  }
  if (only.includes('realtime')) {
    log(`realtime: ${settings.realtime.sessions} Realtime sessions at once, each speaking in 20 ms frames, replies spoken back paced...`);
    results.realtime = await realtime(root, settings.realtime);
    rows.push(...realtimeRows(results.realtime));
  }
  if (only.includes('reload')) {
    log(`reload: ${settings.reload.writes} fixture writes, then ${settings.reloadLarge.writes} among 10,000 fixtures...`);
    results.reload = await reload(root, settings.reload);
    results.reloadLarge = await reload(root, settings.reloadLarge);
    rows.push(...reloadRows(results.reload, results.reloadLarge));
  }
  if (only.includes('cold-start')) {
    log(`cold start: ${settings.coldStart.runs} runs each of node -e, node dist/cli.js (info, silent), aimock, mock-llm...`);
    results.coldStart = await coldStart(settings.coldStart);
    rows.push(...coldStartRows(results.coldStart));
  }
  if (only.includes('relay')) {
    log(`relay: ${settings.relay.rounds} paced streams straight from an upstream mock and through a forwarding one, alternating...`);
    const r = (results.relay = await relay(root, settings.relay));
    rows.push(
      limitRow('relay: ms added to the first event (median)', r.forwarded.firstMs - r.direct.firstMs, { below: 5 }),
      ratioRow('relay: gap between events, forwarded vs upstream alone', r.forwarded.gapMs, r.direct.gapMs, '(upstream)', { atMost: 1.1 }),
    );
  }
  if (only.includes('doors')) {
    log('doors: 2,048 embeddings inputs of 100 words in one request, then embeddings, moderation, legacy completions, rerank and a file read, each against a chat fixture hit...');
    results.doors = await otherDoors(root, settings.doors);
    rows.push(...doorRows(results.doors));
  }
  if (only.includes('drift')) {
    log(`drift: ${settings.drift.turns} recorded turns asked of an upstream mock and the drift command's own, ${settings.drift.runs} runs...`);
    const d = (results.drift = await drift(root, settings.drift));
    rows.push(
      limitRow(`drift over ${d.turns} recorded turns, spawn to exit, s (median)`, d.seconds, { below: 10 }),
      limitRow(`drift over ${d.turns} recorded turns, CPU s of the command (median)`, d.cpuSeconds),
      limitRow(`drift over ${d.turns} recorded turns, CPU s of the upstream (median)`, d.upstreamCpuSeconds),
    );
  }
  if (only.includes('hostile-soak')) {
    log(`hostile soak: malformed, oversized and chained requests among ordinary ones, 1,000 sessions, ${settings.hostileSoak.durationMs / 1000} s...`);
    const h = (results.hostileSoak = await hostileSoak(root, settings.hostileSoak));
    rows.push(
      limitRow(`hostile soak RSS MB at the end (${h.requests} requests)`, h.rssMb, { below: MEMORY_BUDGET_MB + RSS_BEYOND_BUDGET_MB.soak }),
      limitRow(`hostile soak peak RSS MB (budget ${MEMORY_BUDGET_MB} + ${RSS_BEYOND_BUDGET_MB.soak})`, h.peakRssMb, { below: MEMORY_BUDGET_MB + RSS_BEYOND_BUDGET_MB.soak }),
      limitRow('hostile soak longest event-loop stall ms', h.lagMaxMs, { below: 100 }),
      limitRow('hostile soak most CPU ms of the mock in one stall (all its threads)', h.stallCpuMaxMs),
      limitRow('hostile soak MB held by the memory budget at the end (health)', h.memory.total / 2 ** 20),
      limitRow('hostile soak V8 heap MB in use / reserved at the end', h.heapUsedMb, { baseline: h.heapTotalMb, baselineIs: '(reserved)' }),
      limitRow('hostile soak MB outside the heap (Buffers) at the end', h.externalMb),
      limitRow('hostile soak 5xx answers', h.serverErrors, { below: 1 }),
      limitRow('hostile soak longest request ms', h.maxMs, { below: 1000 }),
      limitRow(`hostile soak ordinary answers changed (of ${h.ordinary})`, h.changed, { below: 1 }),
      ratioRow(`previous_response_id chain: turn ${h.chain.turns + 1} ms vs turn 2 (medians of 40)`, h.chain.lastMs, h.chain.firstMs, '(first)', { atMost: 2 }),
    );
  }
  if (only.includes('hostile-sockets')) {
    const k = settings.hostileSockets;
    log(`hostile sockets: a watcher that stops reading under ${k.watchedRequests} requests of 1 MB, a ${k.relayMb} MB relay, ${k.sessions} sessions x ${k.requestsPerSession} bodies of 300 KB over keep-alive...`);
    const s = (results.hostileSockets = await hostileSockets(root, k));
    rows.push(
      limitRow('hostile sockets: longest event-loop stall ms', s.lagMaxMs, { below: 100 }),
      limitRow('hostile sockets: most CPU ms of the mock in one stall (all its threads)', s.stallCpuMaxMs),
      ...Object.entries(s.steps).map(([step, figures]) => limitRow(`hostile sockets: ${step}: longest stall ms / its most CPU ms`, figures.lagMaxMs, { baseline: figures.stallCpuMaxMs, baselineIs: '(CPU)' })),
      limitRow(`hostile sockets: peak RSS MB (budget ${MEMORY_BUDGET_MB} + ${RSS_BEYOND_BUDGET_MB.sockets})`, s.peakRssMb, { below: MEMORY_BUDGET_MB + RSS_BEYOND_BUDGET_MB.sockets }),
      limitRow('hostile sockets: a watcher that stops reading kept (1 = yes)', s.watcherDropped ? 0 : 1, { below: 1 }),
      limitRow(`hostile sockets: ${s.relayMb} MB relayed, MB/s`, s.relayMbPerS),
      limitRow(`hostile sockets: keep-alive requests failed (of ${s.sessions * s.requestsPerSession})`, s.keepAlive.failed, { below: 1 }),
    );
  }
  if (only.includes('hostile-doors')) {
    log('hostile doors: each finding of the doors red team replayed, one at a time, on a mock at the default budgets...');
    const d = (results.hostileDoors = await hostileDoors(root));
    for (const [name, figures] of Object.entries(d.cases)) {
      rows.push(limitRow(`hostile doors: ${name} (answered ${figures.status}): longest stall ms / peak RSS MB`, figures.lagMaxMs, { below: 100, baseline: figures.peakRssMb, baselineIs: '(MB)' }));
    }
    rows.push(
      limitRow('hostile doors: longest event-loop stall ms', d.lagMaxMs, { below: 100 }),
      limitRow(`hostile doors: peak RSS MB (budget ${MEMORY_BUDGET_MB} + ${RSS_BEYOND_BUDGET_MB.doors})`, d.peakRssMb, { below: MEMORY_BUDGET_MB + RSS_BEYOND_BUDGET_MB.doors }),
    );
  }
  if (only.includes('verify')) {
    log('verify: POST /__admin/verify, every kind of expectation, over a journal of 10,000 entries...');
    const v = (results.verify = await verifyPhase(root, settings.verify));
    rows.push(
      limitRow(`verify ms, every kind of expectation, ${v.entries.toLocaleString('en-US')} journal entries (median)`, v.mixed.medianMs, { below: 50, baseline: v.mixed.cpuMs, baselineIs: '(CPU ms)' }),
      limitRow(`verify ms, a body filter reading all ${v.entries.toLocaleString('en-US')} request bodies (median)`, v.everyBody.medianMs, { baseline: v.everyBody.cpuMs, baselineIs: '(CPU ms)' }),
    );
  }
  if (only.includes('audio')) {
    log(`audio: a 200-word speech in each format, 4,096-character speeches, a 60-second WAV transcribed...`);
    const a = (results.audio = await audio(root, settings.audio));
    for (const format of SPEECH_FORMATS) {
      rows.push(limitRow(`speech: 200 words (80 s) as ${format}, ms (median)`, a.speechMs[format].medianMs, { baseline: a.speechMs[format].firstMs, baselineIs: '(first, loads the codec)' }));
    }
    // The goal is on the main thread's CPU per turn; the wall-clock lag beside it also counts
    // what a busy machine does to any process (see the idle server's row).
    const turnRow = (metric, { cpuMs, lagMs }) => ({ ...limitRow(metric, cpuMs, { below: 50, baseline: lagMs, baselineIs: '(wall-clock lag)' }), ratio: undefined });
    for (const format of SPEECH_FORMATS) {
      const { first, later } = a.longSpeechStalls[format];
      rows.push(
        turnRow(`speech: longest event-loop turn, main-thread CPU ms, 4,096 characters as ${format}, first use on a fresh server`, first),
        turnRow(`speech: longest event-loop turn, main-thread CPU ms, 4,096 characters as ${format}, the next speech`, later),
      );
    }
    rows.push(
      limitRow('speech: longest event-loop lag ms of an idle server over a second (the machine)', a.idleLagMs),
      limitRow('transcription: a 60-second WAV as verbose_json, ms (median)', a.transcribeMs),
      turnRow('transcription: longest event-loop turn, main-thread CPU ms, over those transcriptions', a.transcribeStall),
    );
  }
  if (only.includes('batch')) {
    log(`batch: ${settings.batch.lines.toLocaleString('en-US')} lines uploaded, run on a manual clock and downloaded, while another client asks every 5 ms...`);
    const b = (results.batch = await batch(root, settings.batch));
    rows.push(
      limitRow(`batch of ${b.lines.toLocaleString('en-US')} lines: upload ms (${(b.bytes / 2 ** 20).toFixed(1)} MB)`, b.uploadMs),
      limitRow('batch: ms from the clock passing its end to completed', b.runMs),
      limitRow('batch: output file download ms', b.downloadMs),
      limitRow('batch: longest event-loop stall ms meanwhile', b.lagMaxMs, { below: 50 }),
      limitRow(`batch: longest wait of another client ms (${b.probes} requests)`, b.probeMaxMs, { below: 50 }),
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
if (profiles) {
  // Each stall the server timed, cut out of its profile. The profiler samples wall time: on a busy
  // machine a stall can include time the process waited for a core, which shows as (program) or a system call.
  const files = existsSync(profiles) ? readdirSync(profiles) : [];
  for (const { pid, stalls } of stallsOfProfiledMocks()) {
    const file = files.find((name) => name.includes(`.${pid}.`));
    for (const stall of file ? stalls.sort((a, b) => b.cpuMs - a.cpuMs) : []) {
      const { byTotal } = summarize(join(profiles, file), stall.fromUs, stall.toUs);
      console.log(`\nmock ${pid}: a ${stall.ms.toFixed(0)} ms stall (${stall.cpuMs.toFixed(0)} ms of CPU); by total time:`);
      for (const f of byTotal.slice(0, 12)) console.log(`  ${f.totalMs.toFixed(0).padStart(6)} ms  ${f.label}`);
    }
  }
  console.log(`\nprofiles in ${profiles}`);
}
const out = new URL('./results/', import.meta.url);
mkdirSync(out, { recursive: true });
const report = { startedAt: startedAt.toISOString(), quick, phases: only, machine, settings, rows, results };
writeFileSync(new URL('latest.json', out), `${JSON.stringify(report, null, 2)}\n`);
log(`written to bench/results/latest.json`);
