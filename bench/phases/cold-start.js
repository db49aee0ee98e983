// Cold start: from spawning `node dist/cli.js` to its "listening on" line, with the package's own
// fixtures and scenarios, as `npx model-gateway-mock` starts; next to it, the floor: how long
// node takes to start and print a line with nothing loaded.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from '../lib/stats.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GIVE_UP_MS = 10_000;

/** Milliseconds from spawn to the first stdout line containing `marker`; the process is then ended. */
function timeToLine(args, marker) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    // A bench that dies mid-run must not leave a server listening.
    const killChild = () => child.kill('SIGKILL');
    process.once('exit', killChild);
    let out = '';
    let err = '';
    let elapsed;
    const timer = setTimeout(() => child.kill('SIGKILL'), GIVE_UP_MS);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (elapsed === undefined && out.includes(marker)) {
        elapsed = performance.now() - started;
        child.kill('SIGTERM');
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
  for (let run = 0; run < settings.runs; run++) {
    node.push(await timeToLine(['-e', 'console.log("listening on")'], 'listening on'));
    cli.push(await timeToLine(['dist/cli.js', '--port', '0', '--log-level', 'error'], 'listening on'));
  }
  return { medianMs: median(cli), nodeMedianMs: median(node), samples: cli, nodeSamples: node };
}
