// A reload with the last load's cache redoes only the files that changed, and its result is the
// one a full load gives: the same fixtures in the same order, named the same, the same problems.
import { mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoadCache, loadConfig, type LoadResult } from '../../src/config/load.js';

function fixtures(...texts: string[]): string {
  return `chat:\n${texts.map((text, i) => `  - match: { contains: "${text}" }\n    reply: { text: "${text} ${i}" }\n`).join('')}`;
}

function setup() {
  const fixturesDir = mkdtempSync(join(tmpdir(), 'mgm-incremental-'));
  const scenariosDir = mkdtempSync(join(tmpdir(), 'mgm-incremental-s-'));
  const options = { fixturesDirs: [fixturesDir], scenariosDirs: [scenariosDir] };
  const cache = new LoadCache();
  // A second later each time, so that a rewrite of the same size is seen even on coarse clocks.
  let second = 1_700_000_000;
  const write = (name: string, text: string) => {
    const file = join(fixturesDir, name);
    writeFileSync(file, text);
    utimesSync(file, second, ++second);
  };
  return { fixturesDir, options, cache, write, cached: () => loadConfig(options, cache), full: () => loadConfig(options) };
}

/** What a request sees of the fixtures: their order, names, files and priorities. */
const shape = (result: LoadResult) => result.config!.chat.map((f) => ({ name: f.name, order: f.order, file: f.file, priority: f.priority, text: f.text?.template.constant }));

describe('a reload with the cache', () => {
  it('reuses the compiled fixtures of files that did not change, and renumbers those after a change as a full load does', () => {
    const { cached, full, write } = setup();
    write('a.yaml', fixtures('alpha', 'beta'));
    write('b.yaml', fixtures('gamma'));
    write('c.yaml', fixtures('delta', 'epsilon'));
    const first = cached();
    const before = new Map(first.config!.chat.map((f) => [f.text?.template.constant, f]));
    write('b.yaml', fixtures('gamma', 'zeta', 'eta'));
    const second = cached();
    expect(shape(second)).toEqual(shape(full()));
    const after = new Map(second.config!.chat.map((f) => [f.text?.template.constant, f]));
    // a.yaml is before the change: its fixtures are the very objects of the last load.
    expect(after.get('alpha 0')).toBe(before.get('alpha 0'));
    expect(after.get('beta 1')).toBe(before.get('beta 1'));
    // c.yaml moved two places down: unnamed, its fixtures take the names of their new places.
    expect(after.get('delta 0')!.name).toMatch(/c\.yaml#5$/);
    expect(after.get('delta 0')!.matcher).toBe(before.get('delta 0')!.matcher);
  });

  it('keeps reporting a bad file, and takes it back once it is mended to an earlier text', () => {
    const { cached, full, write } = setup();
    write('a.yaml', fixtures('alpha'));
    write('b.yaml', fixtures('beta'));
    const good = cached();
    write('b.yaml', 'chat:\n  - match: { contains: "beta" }\n    reply: { txt: "typo" }\n');
    const bad = cached();
    expect(bad.config).toBeUndefined();
    expect(bad.problems).toEqual(full().problems);
    expect(bad.problems[0]).toMatchObject({ file: expect.stringContaining('b.yaml'), line: 3 });
    // Nothing changed: the same problems again, from the cache.
    expect(cached().problems).toEqual(bad.problems);
    write('b.yaml', fixtures('beta'));
    expect(shape(cached())).toEqual(shape(good));
  });

  it('follows files added, deleted and renamed', () => {
    const { cached, full, write, fixturesDir } = setup();
    write('a.yaml', fixtures('alpha'));
    write('b.yaml', fixtures('beta'));
    cached();
    write('0.yaml', fixtures('first'));
    expect(shape(cached())).toEqual(shape(full()));
    rmSync(join(fixturesDir, 'a.yaml'));
    expect(shape(cached())).toEqual(shape(full()));
    renameSync(join(fixturesDir, 'b.yaml'), join(fixturesDir, 'z.yaml'));
    const renamed = cached();
    expect(shape(renamed)).toEqual(shape(full()));
    expect(renamed.config!.chat.map((f) => f.text?.template.constant)).toEqual(['first 0', 'beta 0']);
  });

  it('reports a duplicate across files whichever file was changed last', () => {
    const { cached, full, write } = setup();
    write('a.yaml', 'models:\n  - id: house-model\n');
    write('b.yaml', 'chat: []\n');
    cached();
    write('b.yaml', 'models:\n  - id: house-model\n');
    const twice = cached();
    expect(twice.problems).toEqual(full().problems);
    expect(twice.problems.map((p) => p.message)).toEqual([expect.stringContaining('model "house-model" is declared twice')]);
  });
});
