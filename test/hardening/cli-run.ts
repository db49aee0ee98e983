// The command line as a user runs it, for the hardening tests: `validate` on a directory, and a
// serving mock in a child process (signals, start-up refusals). The test files that use it build
// the command first (`beforeAll(ensureBuilt)`).
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { COMMAND } from '../helpers/built.js';

export function tempDir(files: Record<string, string | Buffer> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'mgm-hard-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

export function runCli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [...COMMAND, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

export function validate(fixturesDir: string, scenariosDir: string = tempDir()) {
  return runCli('validate', '--fixtures', fixturesDir, '--scenarios', scenariosDir);
}

export interface ServingMock {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** Every line printed so far. */
  lines: string[];
}

/** Starts the CLI on port 0 and resolves with its URL once it prints the listening line. */
export function serve(...args: string[]): Promise<ServingMock> {
  return serveWith(COMMAND, ...args);
}

/** The same for a given command after `node`: the built one with flags of its own, say. */
export async function serveWith(command: readonly string[], ...args: string[]): Promise<ServingMock> {
  const child = spawn(process.execPath, [...command, '--port', '0', ...args], { stdio: 'pipe' });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => lines.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const found = lines.join('\n').match(/listening on (http:\/\/\S+)/);
      if (found) {
        clearInterval(timer);
        resolve(found[1]!);
      }
    }, 10);
    void once(child, 'exit').then(() => {
      clearInterval(timer);
      reject(new Error(`the mock exited before listening:\n${lines.join('\n')}`));
    });
  });
  return { child, url, lines };
}
