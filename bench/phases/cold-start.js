// Cold start: from spawning a server's CLI to its listening line. The mock as `npx
// model-gateway-mock` starts (`node dist/cli.js`, the package's own fixtures and scenarios), at its
// default log level and silent; the peers' CLIs with their fixture files from bench/peers/; and the
// floor: how long node takes to start and print a line with nothing loaded. Runs alternate.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from '../lib/stats.js';
import { PEER_FIXTURES } from '../lib/workload.js';

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
  // mock-llm takes its port and host from the environment only.
  mockLlm: {
    args: ['node_modules/@dwmkerr/mock-llm/dist/main.js', '--config', PEER_FIXTURES.mockLlm],
    env: { PORT: '0', HOST: '127.0.0.1' },
    marker: 'server running on',
  },
};

/**
 * Milliseconds from spawn to the first stdout line containing `marker`; the process is then ended
 * with its whole group (`npm start` runs the server as a child of npm).
 */
function timeToLine({ command = process.execPath, args, env = {}, marker }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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
    let elapsed;
    const timer = setTimeout(() => kill('SIGKILL'), GIVE_UP_MS);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (elapsed === undefined && out.includes(marker)) {
        elapsed = performance.now() - started;
        kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', () => {
      clearTimeout(timer);
      process.off('exit', killChild);
      if (elapsed === undefined) reject(new Error(`"node ${args.join(' ')}" never printed "${marker}": ${err || out}`));
      else resolve(elapsed);
    });
  });
}

/** @param settings `{ runs }` @returns per contender `{ medianMs, samples }` */
export async function coldStart(settings) {
  const samples = Object.fromEntries(Object.keys(CONTENDERS).map((name) => [name, []]));
  for (let run = 0; run < settings.runs; run++) {
    for (const [name, contender] of Object.entries(CONTENDERS)) samples[name].push(await timeToLine(contender));
  }
  return Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, { medianMs: median(list), samples: list }]));
}
