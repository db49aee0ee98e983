// Whether dist/ needs building: missing, or older than any source file or TypeScript setting.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', join('scripts', 'bundle.mjs'), join('scripts', 'shipped-yaml.mjs'), 'fixtures', 'scenarios'];
// tsc rewrites every output on each build, so one output's time is the build's.
const OUTPUT = join('dist', 'cli.js');

function newestMs(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMs(join(path, name))));
}

/** `missing`, `stale` or `current`, for the checkout at `root`. */
export function buildState(root) {
  let built;
  try {
    built = statSync(join(root, OUTPUT)).mtimeMs;
  } catch {
    return 'missing';
  }
  const changed = Math.max(...INPUTS.map((input) => newestMs(join(root, input))));
  return changed > built ? 'stale' : 'current';
}
