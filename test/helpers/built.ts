// dist/ as `npm run build` makes it, for tests of what a user installs (the packed package, the
// bundled command): built once when a source changed since, one test file at a time (files run
// in parallel workers, and two builds at once would write over each other).
//
// The tests that start the command start this one, the bin a user runs. Started from the sources
// through tsx instead, each start loaded some 400 modules through the loader's hooks: 2-3 s of CPU
// a start, against 0.2-0.8 s for the bin, and the suite starts the command about forty times.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { vi } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '..', '..');
const LOCK = join(ROOT, 'test', '.building');

/** What follows `node` to start the built command: `spawn(process.execPath, [...COMMAND, ...args])`. */
export const COMMAND: readonly string[] = [join(ROOT, 'dist', 'cli.js')];

function locked(): boolean {
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    return false;
  }
}

export async function ensureBuilt(): Promise<void> {
  await vi.waitUntil(locked, { timeout: 240_000, interval: 250 });
  try {
    // @ts-expect-error: a plain script beside package.json, without types
    const { buildState } = (await import('../../scripts/build-state.mjs')) as { buildState: (root: string) => string };
    if (buildState(ROOT) !== 'current') execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT });
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
