// The house's rules, held against the code: each room imports only the rooms below it, only the
// HTTP shell (src/server/) touches Koa, no file passes 300 lines, and every style in the registry
// is served, reachable from a browser and recognised by the fingerprint command. A change that
// breaks a rule fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STYLE_NAMES, type StyleName } from '../src/conversation/types.js';
import { MODEL_ROUTES } from '../src/exchange/model-routes.js';
import { requestFingerprint } from '../src/exchange/upstream/fingerprint-command.js';
import { corsRequestHeaders, recognisedStyle, STYLE_ENTRIES, STYLES } from '../src/styles/registry.js';

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

const HTTP_PACKAGES = ['koa', '@koa/router', 'koa-body', 'koa-compose'];

/** The longest a source file may be (DESIGN.md: mockoon's one 76 KB server file is the warning). */
const MAX_LINES = 300;

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

  it(`keeps every file under src/ at ${MAX_LINES} lines or fewer`, () => {
    const long = sources(SRC).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      return lines > MAX_LINES ? [`${relative(join(SRC, '..'), file)} has ${lines} lines`] : [];
    });
    expect(long, `files over ${MAX_LINES} lines; split them by job`).toEqual([]);
  });
});

/** One chat body in each style, as its clients write it: a style without one does not compile. */
const SAMPLE_BODIES: Record<StyleName, Record<string, unknown>> = {
  'chat-completions': { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] },
  responses: { model: 'gpt-4o-mini', input: 'hello' },
  messages: { model: 'claude-sonnet-4-5', max_tokens: 64, system: 'Be brief.', messages: [{ role: 'user', content: 'hello' }] },
  'generate-content': { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] },
  openrouter: { model: 'anthropic/claude-sonnet-4.6', messages: [{ role: 'user', content: 'hello' }], usage: { include: true } },
  'azure-openai': { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], data_sources: [] },
  ollama: { model: 'llama3.2', messages: [{ role: 'user', content: 'hello' }], options: { temperature: 0 } },
  bedrock: { messages: [{ role: 'user', content: [{ text: 'hello' }] }], inferenceConfig: { maxTokens: 64 } },
};

describe('the style registry', () => {
  it('lists every style name once', () => {
    expect(Object.keys(STYLES).sort()).toEqual([...STYLE_NAMES].sort());
  });

  it.each(STYLE_ENTRIES.map((entry) => [entry.style.name, entry] as const))('%s has its chat routes in the model route table', (name, entry) => {
    for (const path of entry.paths) {
      expect(MODEL_ROUTES.find((route) => route.method === 'POST' && route.path === path)?.door.style).toBe(name);
    }
    if (entry.tokens?.path) expect(MODEL_ROUTES.find((route) => route.path === entry.tokens!.path)?.door.style).toBe(name);
  });

  it.each(STYLE_ENTRIES.map((entry) => [entry.style.name, entry] as const))("%s's key and client headers pass a browser's preflight", (_name, entry) => {
    const allowed = corsRequestHeaders([]).split(', ');
    for (const header of [entry.keyHeader, ...entry.corsHeaders, ...(entry.requiredHeaders ?? [])]) expect(allowed).toContain(header);
  });

  it.each(STYLE_ENTRIES.map((entry) => [entry.style.name, entry] as const))('%s bodies are recognised and fingerprinted as that style', (name, entry) => {
    const body = SAMPLE_BODIES[name as StyleName];
    expect(recognisedStyle(body)).toBe(entry);
    expect(requestFingerprint(JSON.stringify(body), { model: 'gemini-2.5-flash' })).toMatch(/^[0-9a-f]{16}$/);
  });
});
