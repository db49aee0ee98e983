// The command's code cache (src/command-script.ts, scripts/code-cache.mjs): the built command's
// cache is taken by a fresh node; a cache V8 refuses, or one made from another script, is only a
// slower start, never another behaviour or a word on stderr.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapCommand } from '../../src/command-script.js';
import { ensureBuilt, ROOT } from '../helpers/built.js';
import { serveWith } from '../hardening/cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'mgm-code-cache-'));

/** Writes `code` as the build writes the command's script; returns its file. */
function scriptOf(name: string, code: string): string {
  const file = join(dir, `${name}.cjs`);
  writeFileSync(file, wrapCommand(code));
  return file;
}

/**
 * Compiles and runs `file` with `cacheFile` in a fresh `node <flags>` (V8 keeps what one process
 * compiled, and would not read a cache for it again), as the built bin does; `write` names a file
 * to write the cache to after the run. Gives what the code set on `globalThis.answer` and whether
 * the cache was taken; nothing may be printed on stderr.
 */
function runFresh(file: string, cacheFile: string, { write, flags = [] }: { write?: string; flags?: string[] } = {}): { answer: unknown; taken: boolean } {
  const probe = `import { writeFileSync } from 'node:fs';
import { compileCommand } from ${JSON.stringify(join(ROOT, 'dist', 'command-script.js'))};
const command = compileCommand(${JSON.stringify(file)}, ${JSON.stringify(cacheFile)}, (s) => import(s));
command.run();
${write ? `writeFileSync(${JSON.stringify(write)}, command.cache());` : ''}
console.log(JSON.stringify({ answer: globalThis.answer, taken: command.cacheTaken }));`;
  const result = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', probe], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { answer: unknown; taken: boolean };
}

beforeAll(async () => {
  await ensureBuilt();
}, 300_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the code cache', () => {
  it('is taken with the script it was made from, and gives the same answers', () => {
    const file = scriptOf('same', 'globalThis.answer = [1, 2, 3].map((n) => n * 2).join();');
    const cacheFile = join(dir, 'same.cache');
    expect(runFresh(file, cacheFile, { write: cacheFile })).toEqual({ answer: '2,4,6', taken: false });
    expect(runFresh(file, cacheFile)).toEqual({ answer: '2,4,6', taken: true });
  });

  it('that V8 refuses is left alone: the script is compiled without it', () => {
    const file = scriptOf('refused', 'globalThis.answer = "compiled";');
    const cacheFile = join(dir, 'refused.cache');
    runFresh(file, cacheFile, { write: cacheFile });
    // The stamp kept, V8's data spoilt, as another Node's or other flags' cache would be refused.
    writeFileSync(cacheFile, readFileSync(cacheFile).fill(7, 64));
    expect(runFresh(file, cacheFile)).toEqual({ answer: 'compiled', taken: false });
  });

  it('made from another script of the same length is not given to V8: the new code runs', () => {
    const older = scriptOf('older', 'globalThis.answer = "old";');
    const cacheFile = join(dir, 'older.cache');
    runFresh(older, cacheFile, { write: cacheFile });
    const newer = scriptOf('newer', 'globalThis.answer = "new";');
    expect(readFileSync(newer).length).toBe(readFileSync(older).length);
    expect(runFresh(newer, cacheFile)).toEqual({ answer: 'new', taken: false });
  });

  it('of the build is taken by a fresh node, and refused under other V8 flags', () => {
    const built = join(ROOT, 'dist', 'command.cjs');
    // Run, the command would serve: only compiled here.
    const taken = (flags: string[]) => spawnSync(process.execPath, [...flags, '--input-type=module', '-e', `import { compileCommand } from ${JSON.stringify(join(ROOT, 'dist', 'command-script.js'))};
console.log(compileCommand(${JSON.stringify(built)}, ${JSON.stringify(join(ROOT, 'dist', 'command.cache'))}, (s) => import(s)).cacheTaken);`], { encoding: 'utf8' }).stdout.trim();
    expect(taken([])).toBe('true');
    expect(taken(['--stack-size=2000'])).toBe('false');
  });

  it('refused, the built command starts and answers as it does with it, silently', async () => {
    const mock = await serveWith(['--stack-size=2000', join(ROOT, 'dist', 'cli.js')], '--latency', 'none', '--no-watch');
    try {
      const client = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
      const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
      expect(completion.choices[0]!.message.content).toContain('model-gateway-mock');
      expect(mock.lines.filter((line) => /warning|error/i.test(line))).toEqual([]);
    } finally {
      mock.child.kill();
    }
  });
});
