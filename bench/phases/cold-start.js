// Cold start: from spawning a server's CLI to its listening line. The mock as `npx
// model-gateway-mock` starts (`node dist/cli.js`, the package's own fixtures and scenarios), at its
// default log level and silent; the peers' CLIs with their fixture files from bench/peers/; and the
// floor: how long node takes to start and print a line with nothing loaded. Runs alternate.
// The first answer: the mock and aimock again, until the first 200 of a fixture hit asked as soon as
// the listening line came (the mock on its shipped greeting, aimock on the bench's last ticket), with
// the CPU the server had used by then (all its threads, from /proc), which a busy machine does not
// inflate as it does the wall time.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { allThreadsNs, schedstat } from '../lib/schedstat.js';
import { median } from '../lib/stats.js';
import { PEER_FIXTURES, ticketRequest } from '../lib/workload.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GIVE_UP_MS = 10_000;

/** What each contender runs, and the line that says it listens. Port 0 everywhere. */
const CONTENDERS = {
  node: { args: ['-e', 'console.log("listening on")'], marker: 'listening on' },
  logging: { args: ['dist/cli.js', '--port', '0'], marker: 'listening on' },
  quiet: { args: ['dist/cli.js', '--port', '0', '--log-level', 'silent'], marker: 'listening on' },
  // Tracing on (to a collector that is not there): its SDK loads after the listening line.
  traced: { args: ['dist/cli.js', '--port', '0', '--otlp-endpoint', 'http://127.0.0.1:9'], marker: 'listening on' },
  aimock: { args: ['node_modules/@copilotkit/aimock/dist/cli.js', '--port', '0', '--fixtures', PEER_FIXTURES.aimock], marker: 'listening on' },
  // What a user types: npm runs the start script, which checks the build, then the CLI.
  npmStart: { command: 'npm', args: ['start', '--silent', '--', '--port', '0'], marker: 'listening on' },
  // The first answer: a fixture hit asked at the listening line.
  firstAnswer: { args: ['dist/cli.js', '--port', '0'], marker: 'listening on', ask: true },
  aimockFirstAnswer: { args: ['node_modules/@copilotkit/aimock/dist/cli.js', '--port', '0', '--fixtures', PEER_FIXTURES.aimock], marker: 'listening on', ask: true },
  // mock-llm takes its port and host from the environment only.
  mockLlm: {
    args: ['node_modules/@dwmkerr/mock-llm/dist/main.js', '--config', PEER_FIXTURES.mockLlm],
    env: { PORT: '0', HOST: '127.0.0.1' },
    marker: 'server running on',
  },
};

/** The CPU milliseconds a process's threads have run so far, and its main thread's. */
function cpuOf(pid) {
  return { all: allThreadsNs(pid) / 1e6, main: schedstat(pid).onCpu / 1e6 };
}

/** Asks the server printed in `out` a fixture hit; resolves once its 200 is read whole. */
async function firstHit(out) {
  const url = /listening on (http:\/\/\S+)/.exec(out)[1];
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
    body: ticketRequest(9),
  });
  await response.text();
  if (response.status !== 200) throw new Error(`the first answer was a ${response.status}`);
}

/**
 * Milliseconds from spawn to the first stdout line containing `marker` (with `ask`, to the first
 * answer after it, and the CPU used by then); the process is then ended with its whole group
 * (`npm start` runs the server as a child of npm).
 */
function timeToLine(contender) {
  return measuredStart(contender).then(({ listenMs, answerMs, cpuAnswerMs }) => ({ elapsed: contender.ask ? answerMs : listenMs, cpuMs: cpuAnswerMs }));
}

/**
 * A start measured at its listening line and (with `ask`) at its first answer: `listenMs` and
 * `answerMs` from spawn, the CPU by then of all threads (`cpuListenMs`, `cpuAnswerMs`) and of the
 * main thread (`mainListenMs`, `mainAnswerMs`), and what `faults(pid)` reads at both (`faultsListen`,
 * `faultsAnswer`), if given. Run from `cwd` (this checkout unless told).
 */
function measuredStart({ command = process.execPath, args, env = {}, marker, ask = false, cwd = ROOT, faults = () => undefined }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const kill = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    // A bench that dies mid-run must not leave a server listening.
    const killChild = () => kill('SIGKILL');
    process.once('exit', killChild);
    let out = '';
    let err = '';
    let listened;
    let measured;
    let failed;
    const timer = setTimeout(() => kill('SIGKILL'), GIVE_UP_MS);
    const at = () => ({ ms: performance.now() - started, cpu: cpuOf(child.pid), faults: faults(child.pid) });
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (listened === undefined && out.includes(marker)) {
        listened = at();
        const answered = ask ? firstHit(out).then(at) : Promise.resolve(listened);
        answered
          .then((answer) => (measured = answer))
          .catch((error) => (failed = error))
          .finally(() => kill('SIGTERM'));
      }
    });
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', () => {
      clearTimeout(timer);
      process.off('exit', killChild);
      if (failed) reject(failed);
      else if (!measured) reject(new Error(`"node ${args.join(' ')}" never printed "${marker}": ${err || out}`));
      else {
        resolve({
          listenMs: listened.ms,
          answerMs: measured.ms,
          cpuListenMs: listened.cpu.all,
          cpuAnswerMs: measured.cpu.all,
          mainListenMs: listened.cpu.main,
          mainAnswerMs: measured.cpu.main,
          faultsListen: listened.faults,
          faultsAnswer: measured.faults,
        });
      }
    });
  });
}

/**
 * The first answer of a mock started with `args` from `cwd` (or of `contender`, one of this
 * phase's, e.g. `aimockFirstAnswer`), measured as `measuredStart` does. For bench/cold-pairs.js.
 */
export function startToFirstAnswer({ contender = 'firstAnswer', cwd, args, faults }) {
  const base = CONTENDERS[contender];
  return measuredStart({ ...base, ...(args && { args }), ...(cwd && { cwd }), faults, ask: true });
}

/** @param settings `{ runs }` @returns per contender `{ medianMs, samples }`, and `cpuMs` (median) for a first answer */
export async function coldStart(settings) {
  const samples = Object.fromEntries(Object.keys(CONTENDERS).map((name) => [name, []]));
  for (let run = 0; run < settings.runs; run++) {
    for (const [name, contender] of Object.entries(CONTENDERS)) samples[name].push(await timeToLine(contender));
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, list]) => {
      const times = list.map((sample) => sample.elapsed);
      const cpu = CONTENDERS[name].ask ? { cpuMs: median(list.map((sample) => sample.cpuMs)) } : {};
      return [name, { medianMs: median(times), samples: times, ...cpu }];
    }),
  );
}
