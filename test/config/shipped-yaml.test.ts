// The shipped fixtures and scenarios are parsed and checked when the package is built, and a start
// on them (or on copies of them) takes their data from that snapshot: the same data their parse
// and check give, and every problem still at its file:line:col, whether the file came from the
// snapshot or not; a copy in a directory of the other kind is checked as that kind.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { checkAgainst } from '../../src/config/issues.js';
import { parseYaml } from '../../src/config/parse-file.js';
import { schemaOf } from '../../src/config/schema.js';
import { digestOf, readShippedYaml, shippedData } from '../../src/config/shipped-yaml.js';
import { ensureBuilt, ROOT } from '../helpers/built.js';

const shippedFiles = ['fixtures', 'scenarios'].flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => join(ROOT, dir, name)),
);

/** The directories the tests made, removed when they end. */
const made: string[] = [];

function fixturesDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mgm-shipped-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Line and column (from 1) where `needle` first occurs in `text`, after `from`. */
function positionOf(text: string, needle: string, from = 0): { line: number; col: number } {
  const at = text.indexOf(needle, from);
  const before = text.slice(0, at).split('\n');
  return { line: before.length, col: before.at(-1)!.length + 1 };
}

beforeAll(ensureBuilt, 300_000);
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the shipped YAML, parsed at build', () => {
  it('holds every shipped file, with the data its parse and its check give', () => {
    const snapshot = readShippedYaml();
    for (const file of shippedFiles) {
      const text = readFileSync(file, 'utf8');
      const entry = snapshot.find((shipped) => shipped.length === text.length && shipped.sha256 === digestOf(text));
      expect(entry, file).toBeDefined();
      const data = (parseYaml(text, file) as { data: unknown }).data;
      expect(JSON.parse(entry!.json)).toEqual(data);
      const kind = file.includes(`${join(ROOT, 'fixtures')}/`) ? 'fixtures' : 'scenarios';
      expect(entry!.checked?.kind, file).toBe(kind);
      expect(JSON.parse(entry!.checked!.json)).toEqual(checkAgainst(schemaOf(kind), data).data);
    }
  });

  it('keeps the named groups of each pattern a shipped file compiles, so a start compiles none of them', () => {
    const snapshot = readShippedYaml();
    const chat = readFileSync(join(ROOT, 'fixtures', 'chat.yaml'), 'utf8');
    const entry = snapshot.find((shipped) => shipped.sha256 === digestOf(chat))!;
    expect(entry.patterns).toEqual({ 'i/weather in (?<city>[A-Za-z ]+)': ['city'] });
    const images = readFileSync(join(ROOT, 'fixtures', 'images.yaml'), 'utf8');
    expect(snapshot.find((shipped) => shipped.sha256 === digestOf(images))!.patterns).toEqual({ 'is/^gpt-image-.*$': [] });
  });

  it('checks a shipped fixtures file copied into a scenarios directory as scenarios', () => {
    const shipped = readFileSync(join(ROOT, 'fixtures', 'chat.yaml'), 'utf8');
    const loaded = loadConfig({ fixturesDirs: [], scenariosDirs: [fixturesDir({ 'chat.yaml': shipped })] });
    expect(loaded.problems[0]).toMatchObject({ ...positionOf(shipped, 'chat:'), message: expect.stringContaining('unknown key "chat"') });
  });

  it('parses a copy changed by one character, and puts its problem where it is', () => {
    const shipped = readFileSync(join(ROOT, 'fixtures', 'chat.yaml'), 'utf8');
    const changed = shipped.replace('match: { contains: "hello" }', 'match: { contains: 5 }');
    expect(shippedData(changed)).toBeUndefined();
    const loaded = loadConfig({ fixturesDirs: [fixturesDir({ 'chat.yaml': changed })], scenariosDirs: [] });
    expect(loaded.problems).toHaveLength(1);
    expect(loaded.problems[0]).toMatchObject({ ...positionOf(changed, '5 }'), message: expect.stringContaining('chat[0].match.contains') });
  });

  it('puts a problem of the merged files at its place in a copy taken from the snapshot', () => {
    const catalog = readFileSync(join(ROOT, 'fixtures', 'models.yaml'), 'utf8');
    expect(shippedData(catalog)).toBeDefined();
    const dir = fixturesDir({ 'a.yaml': catalog, 'b.yaml': catalog });
    const loaded = loadConfig({ fixturesDirs: [dir], scenariosDirs: [] });
    const first = loaded.problems[0]!;
    expect(first.file).toMatch(/b\.yaml$/);
    const id = /- id: (\S+)/.exec(catalog)!;
    expect(first).toMatchObject({ ...positionOf(catalog, id[1]!, id.index), message: expect.stringContaining(`model "${id[1]}" is declared twice`) });
  });
});
