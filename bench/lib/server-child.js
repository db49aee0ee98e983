// A server under test, alone in its own process: the load generator lives in the parent, so on a
// two-core machine each side has a core, and the server measures its own event-loop lag and
// memory, which the parent asks for over IPC.
//
// Messages in:  { type: 'start', kind: 'mock', options, watchTurns? } | { type: 'start', kind: 'bare' | 'koa', body }
//               { type: 'start', kind: 'bare-sse', body, pacing }
//               { type: 'start', kind: 'aimock' | 'mock-llm', fixtures } (a peer and its fixture file)
//               { type: 'reset' } | { type: 'stats' } | { type: 'stop' }
//               { type: 'profile', kind: 'cpu' | 'heap', file } (started) | { type: 'profile' } (stopped, written)
// Messages out: { type: 'listening', url } | { type: 'reset', markUs, rssMb } | { type: 'stats', ..., mainThread } | { type: 'failed', message }
import { openSync, readSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { bareJson, bareSse, koaJson } from './baselines.js';
import { mockLlmHandler, startAimock } from './peers.js';
import { schedstat } from './schedstat.js';

/** Node's default; a sample is the time between two ticks of a timer with this period. */
const RESOLUTION_MS = 10;
const RSS_SAMPLE_MS = 20;
const HOST = '127.0.0.1';

const lag = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
lag.enable();
let peakRss = process.memoryUsage.rss();
/** Where the RSS was at its peak: V8's heap in use, Buffers and other memory outside it. */
let atPeak = process.memoryUsage();
setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (rss > peakRss) [peakRss, atPeak] = [rss, process.memoryUsage()];
}, RSS_SAMPLE_MS);

/**
 * A gap between two ticks this much over the period is a stall worth naming (SPEC 11: about 100 ms);
 * `BENCH_STALL_MS=20` names the turns past the lag row's bound instead (lag-waves.js).
 */
const STALL_MS = Number(process.env.BENCH_STALL_MS ?? 100);
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const cpuMsNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
/**
 * The longest stalls since the reset, on the profiler's clock, so a profile can be cut to each,
 * with the CPU time the process used meanwhile: on a busy machine a stall can be mostly time spent
 * waiting for a core, which the CPU time leaves out (it counts every thread, so it is an upper bound).
 */
let stalls = [];
const longest = (all) => {
  const byWall = [...all].sort((a, b) => b.ms - a.ms).slice(0, 10);
  const byCpu = [...all].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 10);
  return [...new Set([...byWall, ...byCpu])];
};
/** The most CPU time used between two ticks since the reset: a stall as the mock's own work made it. */
let stallCpuMaxMs = 0;
let lastTick = { us: nowUs(), cpuMs: cpuMsNow() };
setInterval(() => {
  const tick = { us: nowUs(), cpuMs: cpuMsNow() };
  const ms = (tick.us - lastTick.us) / 1000 - RESOLUTION_MS;
  const cpuMs = tick.cpuMs - lastTick.cpuMs;
  stallCpuMaxMs = Math.max(stallCpuMaxMs, cpuMs);
  // The ten longest and the ten that took the most CPU: on a busy machine they differ.
  if (ms > STALL_MS) stalls = longest([...stalls, { fromUs: lastTick.us, toUs: tick.us, ms, cpuMs }]);
  lastTick = tick;
}, RESOLUTION_MS);

let cpuAtReset = process.cpuUsage();

/**
 * The main thread's time on a CPU and waiting in the run queue for one (its schedstat, Linux;
 * undefined elsewhere), in ns. On a shared machine the wait tells a run whose server was short
 * of a core from one whose own work was slow: what is left of the wall time beside the two is
 * the thread idle, with nothing to do.
 */
function mainThreadNs() {
  try {
    return { ...schedstat('self', process.pid), wall: Number(process.hrtime.bigint()) };
  } catch {
    return undefined;
  }
}
let mainThreadAtReset = mainThreadNs();

/** The main thread's ms on a CPU, waiting for one, and of wall time, since the reset. */
function mainThreadSinceReset() {
  const now = mainThreadNs();
  if (!now || !mainThreadAtReset) return undefined;
  const ms = (key) => (now[key] - mainThreadAtReset[key]) / 1e6;
  return { onCpuMs: ms('onCpu'), waitingMs: ms('waiting'), wallMs: ms('wall') };
}

/**
 * The longest event-loop turn in CPU time of the main thread alone, when the start message asks
 * (`watchTurns`, Linux): a 1 ms timer reads the thread's time on the CPU (its schedstat, in ns)
 * at each tick, and the most used between two ticks is the longest CPU work another client had
 * to wait for. Unlike the lag, a busy machine's preemption and the worker threads do not count.
 */
let turnCpuMax = 0;
function watchTurns() {
  const fd = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
  const bytes = Buffer.alloc(64);
  const onCpu = () => Number(bytes.toString('latin1', 0, readSync(fd, bytes, 0, 64, 0)).split(' ')[0]);
  let last = onCpu();
  const tick = () => {
    const now = onCpu();
    turnCpuMax = Math.max(turnCpuMax, now - last);
    last = now;
    setTimeout(tick, 1).unref();
  };
  tick();
}
let stopServer = async () => {};

function send(message) {
  process.send?.(message);
}

/** @param backlog the listen backlog; undefined is Node's default (511), as a peer's own CLI listens */
function listen(handler, backlog) {
  const server = createServer(handler);
  return new Promise((resolve) => {
    server.listen({ port: 0, host: HOST, backlog }, () => {
      stopServer = () =>
        new Promise((done) => {
          server.close(() => done());
          server.closeAllConnections();
        });
      resolve(`http://127.0.0.1:${server.address().port}`);
    });
  });
}

/**
 * The floors listen as the mock does, with the kernel's largest backlog: Node's default drops
 * part of 1,000 connections opened at once, each dropped one then waits a second to retry.
 */
const BASELINE_BACKLOG = 4096;

async function startBaseline(message) {
  if (message.kind === 'koa') return listen(await koaJson(message.body), BASELINE_BACKLOG);
  if (message.kind === 'bare-sse') return listen(bareSse(message.body, message.pacing), BASELINE_BACKLOG);
  return listen(bareJson(message.body), BASELINE_BACKLOG);
}

async function startPeer(message) {
  if (message.kind === 'mock-llm') return listen(mockLlmHandler(message.fixtures, HOST));
  const aimock = await startAimock(message.fixtures, HOST);
  stopServer = () =>
    new Promise((done) => {
      aimock.server.close(() => done());
      aimock.server.closeAllConnections();
    });
  return aimock.url;
}

/** Silent and unpaced unless `options` say otherwise (the CLI's default log level is `info`). */
async function startMock(options) {
  const { startMockServer } = await import(new URL('../../dist/index.js', import.meta.url).href);
  // The heap as the command sizes it (src/heap.ts): the bench measures what a user running the CLI gets.
  const { boundHeapGrowth } = await import(new URL('../../dist/heap.js', import.meta.url).href);
  boundHeapGrowth();
  const server = await startMockServer({ latency: 'none', logLevel: 'silent', ...options, port: 0, host: HOST });
  stopServer = () => server.close();
  return server.url;
}

function start(message) {
  if (message.watchTurns) watchTurns();
  if (message.kind === 'mock') return startMock(message.options);
  if (message.kind === 'aimock' || message.kind === 'mock-llm') return startPeer(message);
  return startBaseline(message);
}

/** Lag is how late the timer fired: the tick interval minus its period. */
function lagMs(nanoseconds) {
  return Math.max(0, nanoseconds / 1e6 - RESOLUTION_MS);
}

/** CPU time counts only while this process runs: unlike req/s, other load cannot inflate it. */
function cpuSinceReset() {
  const used = process.cpuUsage(cpuAtReset);
  return { cpuMs: (used.user + used.system) / 1000, cpuSystemMs: used.system / 1000 };
}

/**
 * A profile of a stretch the parent chooses (first-burst.js `--profile`): V8's CPU profiler at
 * 100 µs, or its sampling heap profiler (every 4 KB allocated on average) with what the collector
 * freed kept in, so the profile is all the stretch allocated, not what survived it.
 */
let profiling;
async function profile({ kind, file }) {
  if (kind) {
    const session = new Session();
    session.connect();
    if (kind === 'cpu') {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
    } else {
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    }
    profiling = { session, kind, file };
    return {};
  }
  const { session, kind: was, file: to } = profiling;
  const { profile: made } = await session.post(was === 'cpu' ? 'Profiler.stop' : 'HeapProfiler.stopSampling');
  writeFileSync(to, JSON.stringify(made));
  session.disconnect();
  profiling = undefined;
  return { file: to };
}

process.on('message', async (message) => {
  try {
    if (message.type === 'start') {
      send({ type: 'listening', url: await start(message) });
    } else if (message.type === 'reset') {
      lag.reset();
      atPeak = process.memoryUsage();
      peakRss = atPeak.rss;
      stalls = [];
      stallCpuMaxMs = 0;
      turnCpuMax = 0;
      cpuAtReset = process.cpuUsage();
      mainThreadAtReset = mainThreadNs();
      // On the monotonic clock of V8's profiler, so a profile can be cut to what follows.
      send({ type: 'reset', markUs: nowUs(), rssMb: peakRss / 2 ** 20 });
    } else if (message.type === 'stats') {
      const memory = process.memoryUsage();
      send({
        type: 'stats',
        lagP50Ms: lagMs(lag.percentile(50)),
        lagP99Ms: lagMs(lag.percentile(99)),
        lagMaxMs: lagMs(lag.max),
        lagSamples: lag.count,
        turnCpuMaxMs: turnCpuMax / 1e6,
        peakRssMb: peakRss / 2 ** 20,
        peakHeapUsedMb: atPeak.heapUsed / 2 ** 20,
        peakHeapTotalMb: atPeak.heapTotal / 2 ** 20,
        peakExternalMb: atPeak.external / 2 ** 20,
        rssMb: memory.rss / 2 ** 20,
        // Where the RSS goes: V8's heap (in use, and reserved) and memory outside it (Buffers).
        heapUsedMb: memory.heapUsed / 2 ** 20,
        heapTotalMb: memory.heapTotal / 2 ** 20,
        externalMb: memory.external / 2 ** 20,
        stalls,
        stallCpuMaxMs,
        ...cpuSinceReset(),
        mainThread: mainThreadSinceReset(),
      });
    } else if (message.type === 'profile') {
      send({ type: 'profile', ...(await profile(message)) });
    } else if (message.type === 'stop') {
      await stopServer();
      // An explicit exit so that --cpu-prof writes its profile.
      process.exit(0);
    }
  } catch (error) {
    send({ type: 'failed', message: error?.stack ?? String(error) });
  }
});

// The parent going away must not leave a server behind.
process.on('disconnect', () => process.exit(0));
