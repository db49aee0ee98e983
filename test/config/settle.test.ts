// A reload with a Settling reads a changed file only once its stamp has stayed the same for the
// settle time; until then its last version stays in force (a new file stays out, a removed one
// in), and each file settles on its own. Driven by a clock the test moves, so nothing here waits.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoadCache, loadConfig, type LoadResult } from '../../src/config/load.js';
import { SETTLE_MS, Settling } from '../../src/config/settle.js';

const fixture = (name: string, text: string) => `chat:\n  - name: ${name}\n    match: { contains: "${name}" }\n    reply: { text: "${text}" }\n`;

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'mgm-settle-'));
  const options = { fixturesDirs: [dir], scenariosDirs: [] };
  const cache = new LoadCache();
  let now = 0;
  const settling = new Settling(() => now);
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
  loadConfig(options, cache);
  return {
    write,
    remove: (name: string) => rmSync(join(dir, name)),
    /** A look at `at` ms on the settling clock. */
    lookAt: (at: number): LoadResult => {
      now = at;
      return loadConfig(options, cache, settling);
    },
    nextLookIn: () => settling.nextLookIn(),
    trust: (name: string) => settling.trust(join(dir, name)),
  };
}

const said = (result: LoadResult) => Object.fromEntries(result.config!.chat.map((f) => [f.name, f.text?.template.constant]));

describe('settling', () => {
  it('keeps a changed file at its last version until its stamp has held for the settle time', () => {
    const { write, lookAt, nextLookIn } = setup();
    write('a.yaml', fixture('a', 'one'));
    // Only a file still settling changed: nothing to take, the configuration in force stays.
    const first = lookAt(0);
    expect(first).toMatchObject({ waiting: true, taken: false });
    expect(first.config).toBeUndefined();
    write('a.yaml', fixture('a', 'two'));
    lookAt(1_000);
    write('a.yaml', fixture('a', 'three'));
    expect(lookAt(1_010)).toMatchObject({ waiting: true, taken: false });
    // Each file that changed since the last look starts its wait again: half-way is not enough.
    const early = lookAt(1_010 + SETTLE_MS - 1);
    expect(early).toMatchObject({ waiting: true, taken: false });
    expect(nextLookIn()).toBe(2);
    const settled = lookAt(1_010 + SETTLE_MS);
    expect(settled).toMatchObject({ waiting: false, taken: true });
    expect(said(settled)).toEqual({ a: 'three' });
  });

  it('settles each file on its own: one rewritten without end never holds up another', () => {
    const { write, lookAt } = setup();
    write('busy.yaml', fixture('busy', 'v0'));
    write('calm.yaml', fixture('calm', 'old'));
    lookAt(0);
    lookAt(SETTLE_MS);
    write('calm.yaml', fixture('calm', 'new'));
    // Each version a byte longer: writes quicker than the file system's clock still change the stamp.
    const taken: Array<Record<string, unknown>> = [];
    for (let at = 1_000, version = 1; version <= 10; at += 50, version++) {
      write('busy.yaml', fixture('busy', `v${'+'.repeat(version)}`));
      const result = lookAt(at);
      if (result.taken) taken.push(said(result));
    }
    expect(taken).toEqual([{ busy: 'v0', calm: 'new' }]);
  });

  it('keeps a new file out and a removed one in until they settle, and takes the mock own writes at once', () => {
    const { write, remove, lookAt, trust } = setup();
    write('kept.yaml', fixture('kept', 'here'));
    lookAt(0);
    expect(said(lookAt(SETTLE_MS))).toEqual({ kept: 'here' });
    remove('kept.yaml');
    write('fresh.yaml', fixture('fresh', 'new'));
    expect(lookAt(1_000)).toMatchObject({ waiting: true, taken: false });
    expect(said(lookAt(1_000 + SETTLE_MS))).toEqual({ fresh: 'new' });

    write('own.yaml', fixture('own', 'written by the mock'));
    trust('own.yaml');
    expect(said(lookAt(2_000))).toEqual({ fresh: 'new', own: 'written by the mock' });
  });
});
