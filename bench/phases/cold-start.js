// Cold start: from spawning `node dist/cli.js` to its "listening on" line, with the package's own
// fixtures and scenarios, as `npx model-gateway-mock` starts; next to it, the floor: how long
// node takes to start and print a line with nothing loaded.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from '../lib/stats.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GIVE_UP_MS = 10_000;

/**
 * Milliseconds from spawn to the first stdout line containing `marker`; the process is then ended
 * (with its own group: `npm start` runs the server as a child of npm).
 */
function timeToLine(args, marker, command = process.execPath) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const kill = (signal) => process.kill(-child.pid, signal);
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

/** @param settings `{ runs }` */
export async function coldStart(settings) {
  const cli = [];
  const node = [];
  const npmStart = [];
  for (let run = 0; run < settings.runs; run++) {
    node.push(await timeToLine(['-e', 'console.log("listening on")'], 'listening on'));
    cli.push(await timeToLine(['dist/cli.js', '--port', '0', '--log-level', 'error'], 'listening on'));
    // As the README starts it, on a checkout built by `npm install` (`npm run bench` just built).
    npmStart.push(await timeToLine(['start', '--', '--port', '0', '--log-level', 'error'], 'listening on', 'npm'));
  }
  return { medianMs: median(cli), nodeMedianMs: median(node), npmStartMedianMs: median(npmStart), samples: cli, nodeSamples: node, npmStartSamples: npmStart };
}
