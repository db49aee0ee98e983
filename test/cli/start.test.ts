// `npm start` as the README says it, on a built checkout: the listening line comes quickly, with
// no rebuild, and the summary line after it, as docs/inspector.md shows them; `kill` of npm stops
// the server too. (The 2 s goal is measured in `npm run bench`.)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { beforeAll, describe, expect, it, vi } from 'vitest';

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
    for (const dir of ['src', 'scripts', 'fixtures', 'scenarios']) mkdirSync(join(root, dir));
    const inputs = ['src/cli.ts', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle.mjs', 'scripts/shipped-yaml.mjs', 'fixtures/chat.yaml'];
    for (const file of inputs) writeFileSync(join(root, file), '');
    const at = (file: string, seconds: number) => utimesSync(join(root, file), seconds, seconds);
    for (const file of [...inputs, 'src', 'fixtures', 'scenarios']) at(file, 1_000);
    expect(buildState(root)).toBe('missing');
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'cli.js'), '');
    at('dist/cli.js', 2_000);
    expect(buildState(root)).toBe('current');
    at('src/cli.ts', 3_000);
    expect(buildState(root)).toBe('stale');
    at('src/cli.ts', 1_000);
    at('scripts/bundle.mjs', 3_000);
    expect(buildState(root)).toBe('stale');
    at('scripts/bundle.mjs', 1_000);
    // The build's snapshot of the shipped YAML follows the shipped files.
    at('fixtures/chat.yaml', 3_000);
    expect(buildState(root)).toBe('stale');
  });
});

/** `npm start` in its own process group, so that a test can end npm and what it started together. */
function npmStart() {
  const child = spawn('npm', ['start', '--', '--port', '0', '--no-watch'], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return { child, lines: createInterface({ input: child.stdout }), stderr: () => stderr };
}

/** The listening line and the one after it, the two lines a user sees once it is up. */
async function startLines(lines: Interface): Promise<string[]> {
  const found: string[] = [];
  for await (const line of lines) {
    if (found.length > 0 || /listening on http:\/\/127\.0\.0\.1:\d+/.test(line)) found.push(line);
    if (found.length === 2) break;
  }
  return found;
}

/** Numbers (times, ports, counts) aside, a line's words. */
const shape = (line: string) => line.replace(/\d+/g, 'N');

describe('npm start', () => {
  it('prints its listening line without rebuilding, then the summary, as docs/inspector.md shows them', async () => {
    const started = performance.now();
    const { child, lines, stderr } = npmStart();
    try {
      const [listening, summary] = await startLines(lines);
      const elapsedMs = performance.now() - started;
      expect(listening).toMatch(/^\d\d:\d\d:\d\d\.\d{3} model-gateway-mock listening on /);
      expect(stderr()).not.toContain('building');
      expect(elapsedMs).toBeLessThan(10_000);
      const doc = readFileSync(join(ROOT, 'docs', 'inspector.md'), 'utf8');
      const shown = /```\nnpx model-gateway-mock\n([^`]*)```/.exec(doc)![1]!.trimEnd().split('\n');
      expect(shown.map(shape)).toEqual([listening, summary].map((line) => shape(line!)));
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
  });

  it('stops listening when npm is sent the signal (npm start & ... kill $!)', async () => {
    const { child, lines } = npmStart();
    try {
      const [listening] = await startLines(lines);
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(listening!)![1]!;
      expect((await fetch(`${url}/`)).status).toBe(200);
      process.kill(child.pid!, 'SIGTERM');
      // Polls to a deadline until the port refuses; vi.waitUntil throws if it never does.
      const refused = await vi.waitUntil(() => fetch(`${url}/`).then(() => false, () => true), { timeout: 20_000, interval: 100 });
      expect(refused).toBe(true);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The whole group has ended already.
      }
    }
  });
});
