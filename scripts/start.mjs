// `npm start`: builds dist/ only when it is missing or older than a source file, then runs the CLI
// in this same process, so a checkout where `npm install` has just built starts at once, and an
// edited one never runs old code. `--build-only` stops after the check (tests use it).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildState } from './build-state.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const state = buildState(ROOT);
if (state !== 'current') {
  console.error(state === 'missing' ? 'dist/ is missing: building first.' : 'src/ changed since the last build: building first.');
  // What `npm run build` runs: tsc, then the command's bundle.
  for (const step of [[join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')], [join(ROOT, 'scripts', 'bundle.mjs')]]) {
    const result = spawnSync(process.execPath, step, { stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}
if (!process.argv.includes('--build-only')) {
  stopWithNpm();
  await import(new URL('../dist/cli.js', import.meta.url).href);
}

/**
 * `npm start &` then `kill $!` ends npm and its shell but not this process, which would go on
 * listening: once npm's shell is gone (this process handed to another parent), it stops as if the
 * signal had reached it.
 */
function stopWithNpm() {
  if (!process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, 250);
  watch.unref();
}
