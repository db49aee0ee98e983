// Starting servers under test in child processes (see server-child.js) and talking to them.
import { fork } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./server-child.js', import.meta.url));
const REPLY_TIMEOUT_MS = 60_000;
const EXIT_TIMEOUT_MS = 5_000;

/** Waits for the child's next message of `type`; a `failed` message or an early exit rejects. */
function nextMessage(child, type) {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message) => {
      if (message.type !== type && message.type !== 'failed') return;
      cleanup();
      if (message.type === 'failed') reject(new Error(`server process: ${message.message}`));
      else resolve(message);
    };
    const onExit = (code) => {
      cleanup();
      reject(new Error(`server process exited (${code}) while the bench waited for "${type}"`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`server process did not answer "${type}" within ${REPLY_TIMEOUT_MS} ms`));
    }, REPLY_TIMEOUT_MS);
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

async function ask(child, message) {
  const reply = nextMessage(child, message.type);
  child.send(message);
  return reply;
}

/**
 * Node and V8 flags for every server child only (`BENCH_SERVER_FLAGS="--heap-growing-percent=50"`):
 * unlike NODE_OPTIONS they may be any V8 flag, and the bench's own process is left as it is.
 */
const SERVER_FLAGS = process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [];

/**
 * @param start the `start` message: `{ kind: 'mock', options }`, `{ kind: 'bare' | 'koa', body }`,
 *   `{ kind: 'bare-sse', body, pacing }` or `{ kind: 'aimock' | 'mock-llm', fixtures }`
 * @param execArgv node flags for the child, such as `--cpu-prof`
 * @param logFile where the child's stdout goes (appended), as a user would send a server's log to
 *   a file; a server that logs per request pays for each line. Without it, stdout is the bench's.
 */
export async function startServer(start, { execArgv = [], logFile } = {}) {
  const stdout = logFile === undefined ? 'inherit' : openSync(logFile, 'a');
  const child = fork(CHILD, [], { execArgv: [...execArgv, ...SERVER_FLAGS], stdio: ['ignore', stdout, 'inherit', 'ipc'] });
  if (typeof stdout === 'number') closeSync(stdout);
  const listening = nextMessage(child, 'listening');
  child.send({ type: 'start', ...start });
  let url;
  try {
    ({ url } = await listening);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    pid: child.pid,
    /** Forgets the lag samples and the peak RSS so far; answers `{ markUs, rssMb }`. */
    reset: () => ask(child, { type: 'reset' }),
    /** `{ lagP50Ms, lagP99Ms, lagMaxMs, lagSamples, peakRssMb, rssMb, heapUsedMb, heapTotalMb,
     * externalMb, cpuMs, cpuSystemMs, turnCpuMaxMs }` (lag, peak and CPU since the last reset). */
    stats: () => ask(child, { type: 'stats' }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The one log file every server of a run writes its stdout to, in the run's directory `root`. */
export function serverLog(root) {
  return join(root, 'servers.log');
}

let profileDir;
/** The stalls each profiled mock reported, by its process id (which names its profile). */
const profiledStalls = new Map();

/**
 * From now on every mock runs with `node --cpu-prof`, its profile written into `dir` when it stops,
 * and the stalls it reports are kept to be found in the profile.
 */
export function profileMocksInto(dir) {
  profileDir = dir;
}

/**
 * @param logFile see startServer: needed when `options.logLevel` makes the mock log
 * @param watchTurns whether `stats()` reports `turnCpuMaxMs` (see server-child.js; Linux only)
 */
export async function startMock(options, logFile, { watchTurns = false } = {}) {
  if (profileDir === undefined) return startServer({ kind: 'mock', options, watchTurns }, { logFile });
  const server = await startServer({ kind: 'mock', options, watchTurns }, { logFile, execArgv: ['--cpu-prof', '--cpu-prof-dir', profileDir] });
  const stats = server.stats;
  const stalls = [];
  profiledStalls.set(server.pid, stalls);
  return {
    ...server,
    stats: async () => {
      const answer = await stats();
      // Asked twice without a reset, the mock names a stall again.
      stalls.push(...answer.stalls.filter((stall) => !stalls.some((known) => known.fromUs === stall.fromUs)));
      return answer;
    },
  };
}

/** `[{ pid, stalls: [{ fromUs, toUs, ms }] }]`: what the profiled mocks reported when asked for their stats. */
export function stallsOfProfiledMocks() {
  return [...profiledStalls].map(([pid, stalls]) => ({ pid, stalls }));
}

/** A peer (`aimock` or `mock-llm`) loaded from its fixture file, logging into `logFile`. */
export function startPeer(kind, fixtures, logFile) {
  return startServer({ kind, fixtures }, { logFile });
}

/** A bare node:http server answering `body` to every request. */
export function startBare(body) {
  return startServer({ kind: 'bare', body });
}

/** A bare node:http server streaming the SSE text `sse` with `pacing`, as the mock's writer does. */
export function startBareSse(sse, pacing) {
  return startServer({ kind: 'bare-sse', body: sse, pacing });
}

/** Koa, @koa/router and koa-body answering `body`: the floor under anything built on them. */
export function startKoa(body) {
  return startServer({ kind: 'koa', body });
}
