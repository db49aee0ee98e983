// docs/agents.md shows the agents' fixture files as fenced YAML: each block is one of
// examples/agents' files as the agents' tests load them, and the files pass `validate`'s check.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettledConfig } from '../../src/config/load.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const EXAMPLES = join(ROOT, 'examples', 'agents');

function yamlBlocks(doc: string): string[] {
  return [...readFileSync(join(ROOT, doc), 'utf8').matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((found) => found[1]!);
}

describe('the agents fixtures of docs/agents.md', () => {
  it('are the example files, block for block', () => {
    const files = readdirSync(EXAMPLES).sort().map((name) => readFileSync(join(EXAMPLES, name), 'utf8'));
    expect(yamlBlocks('docs/agents.md').sort()).toEqual(files.sort());
  });

  it('pass validate, as a user copying them would run it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgm-agents-docs-'));
    try {
      yamlBlocks('docs/agents.md').forEach((block, i) => writeFileSync(join(dir, `block-${i}.yaml`), block));
      const result = loadSettledConfig({ fixturesDirs: [dir], scenariosDirs: [] });
      expect(result.problems).toEqual([]);
      expect(result.files).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
