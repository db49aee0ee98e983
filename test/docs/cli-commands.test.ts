// docs/cli.md describes every subcommand the command line has, as `--help` lists them: a newcomer
// reading the page meets each one (`mcp` and `fingerprint` were once left out).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built.js';

const ROOT = join(import.meta.dirname, '..', '..');

beforeAll(() => ensureBuilt(), 180_000);

it('every subcommand of --help has its paragraph in docs/cli.md', () => {
  const help = execFileSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), '--help'], { encoding: 'utf8' });
  const commands = [...help.split('Commands:')[1]!.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((match) => match[1]!).filter((name) => name !== 'help');
  expect(commands).toContain('fingerprint');
  const page = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
  const undocumented = commands.filter((name) => !new RegExp(`^\`${name}[ \`]`, 'm').test(page));
  expect(undocumented).toEqual([]);
});
