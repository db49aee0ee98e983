// `npm start`: builds dist/ only when it is missing or older than a source file, then runs the CLI
// in this same process, so a checkout where `npm install` has just built starts at once, and an
// edited one never runs old code. `--build-only` stops after the check (tests use it).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json'];
// tsc rewrites every output on each build, so one output's time is the build's.
const OUTPUT = join(ROOT, 'dist', 'cli.js');

function newestMs(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMs(join(path, name))));
}

function builtMs() {
  try {
    return statSync(OUTPUT).mtimeMs;
  } catch {
    return -Infinity;
  }
}

const built = builtMs();
const changed = Math.max(...INPUTS.map((input) => newestMs(join(ROOT, input))));
if (changed > built) {
  console.error(built === -Infinity ? 'dist/ is missing: building first.' : 'src/ changed since the last build: building first.');
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
if (!process.argv.includes('--build-only')) await import(new URL('../dist/cli.js', import.meta.url).href);
