// The house's rules, held against the code: each room imports only the rooms below it, and only
// the HTTP shell (src/server/) touches Koa. A new import that breaks a rule fails here, naming it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

/** What each top folder of src/ may import, besides itself (docs/architecture.md). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  conversation: [],
  state: ['conversation'],
  config: ['conversation'],
  styles: ['conversation', 'config'],
  media: ['conversation', 'state', 'config'],
  scenarios: ['conversation', 'state', 'config'],
  exchange: ['conversation', 'state', 'config', 'styles', 'media', 'scenarios'],
  admin: ['conversation', 'state', 'config', 'styles', 'media', 'scenarios', 'exchange'],
  server: ['conversation', 'state', 'config', 'styles', 'media', 'scenarios', 'exchange', 'admin'],
};

const HTTP_PACKAGES = ['koa', '@koa/router', 'koa-body'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]!);
}

/** The top folder of src/ a path lies in, or undefined for src/cli.ts and src/index.ts. */
function roomOf(path: string): string | undefined {
  const parts = relative(SRC, path).split('/');
  return parts.length > 1 ? parts[0] : undefined;
}

const files = sources(SRC).filter((file) => roomOf(file) !== undefined);

describe('the house', () => {
  it('knows every top folder of src/', () => {
    const rooms = new Set(files.map((file) => roomOf(file)!));
    expect([...rooms].sort()).toEqual(Object.keys(MAY_IMPORT).sort());
  });

  it.each(Object.keys(MAY_IMPORT))('src/%s/ imports only the rooms below it, and only the shell imports Koa', (room) => {
    const wrong = files
      .filter((file) => roomOf(file) === room)
      .flatMap((file) =>
        importsOf(file).flatMap((specifier) => {
          if (!specifier.startsWith('.')) return room !== 'server' && HTTP_PACKAGES.includes(specifier) ? [`${relative(SRC, file)}: ${specifier}`] : [];
          const target = roomOf(resolve(join(file, '..'), specifier));
          const allowed = target === undefined || target === room || MAY_IMPORT[room]!.includes(target);
          return allowed ? [] : [`${relative(SRC, file)}: ${specifier}`];
        }),
      );
    expect(wrong).toEqual([]);
  });
});
