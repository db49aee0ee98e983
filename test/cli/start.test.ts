// `npm start` as the README says it, on a built checkout: the listening line comes quickly, with
// no rebuild, and the summary line after it. (The 2 s goal is measured in `npm run bench`.)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

beforeAll(() => {
  // A checkout built by `npm install`; a stale dist/ is rebuilt here, outside the measurement.
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'start.mjs'), '--build-only'], { encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(0);
}, 180_000);

describe('the build check before npm start', () => {
  it('builds when dist/ is missing or older than a source file, not when it is current', async () => {
    // @ts-expect-error: a plain script beside package.json, without types
    const { buildState } = (await import('../../scripts/build-state.mjs')) as { buildState: (root: string) => string };
    const root = mkdtempSync(join(tmpdir(), 'mgm-build-'));
    mkdirSync(join(root, 'src'));
    for (const file of ['src/cli.ts', 'tsconfig.json', 'tsconfig.build.json']) writeFileSync(join(root, file), '');
    const at = (file: string, seconds: number) => utimesSync(join(root, file), seconds, seconds);
    for (const file of ['src/cli.ts', 'src', 'tsconfig.json', 'tsconfig.build.json']) at(file, 1_000);
    expect(buildState(root)).toBe('missing');
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'cli.js'), '');
    at('dist/cli.js', 2_000);
    expect(buildState(root)).toBe('current');
    at('src/cli.ts', 3_000);
    expect(buildState(root)).toBe('stale');
  });
});

describe('npm start', () => {
  it('prints its listening line without rebuilding', async () => {
    const started = performance.now();
    // Its own process group, so that npm and the server it starts end together.
    const child = spawn('npm', ['start', '--', '--port', '0', '--no-watch'], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    try {
      const lines = createInterface({ input: child.stdout });
      let listening: string | undefined;
      for await (const line of lines) {
        if (/listening on http:\/\/127\.0\.0\.1:\d+/.test(line)) {
          listening = line;
          break;
        }
      }
      const elapsedMs = performance.now() - started;
      expect(listening).toMatch(/^\d\d:\d\d:\d\d\.\d{3} model-gateway-mock listening on /);
      expect(stderr).not.toContain('building');
      expect(elapsedMs).toBeLessThan(10_000);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
  });
});
