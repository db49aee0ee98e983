// Every code block of the README and docs/ runs, so that a doc cannot drift from the code: each
// `ts`/`js` block is a module and each `sh` block a bash script, run against a mock on port 0 (the
// doc's http://127.0.0.1:4141 rewritten to it) in a directory that `init` filled, as a user's
// project would be; the README's modules in an empty folder, since a user pastes them anywhere.
// A block after `<!-- snippet: continues -->` joins the last one of its language before it (a
// walk-through in steps); one after
// `<!-- snippet: skip (why) -->` is not run (starting servers that stay up, installing packages).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/index.js';
import { init } from '../../src/init.js';
import { COMMAND, ensureBuilt } from '../helpers/built.js';
import { runCollected } from '../helpers/snippet-vitest.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, '.snippets');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

interface Snippet {
  doc: string;
  line: number;
  lang: 'ts' | 'sh';
  code: string;
  skip?: string;
}

function snippetsOf(doc: string): Snippet[] {
  const lines = readFileSync(join(ROOT, doc), 'utf8').split('\n');
  const found: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const lang = /^```(ts|typescript|js|javascript|sh|bash)\s*$/.exec(lines[i]!)?.[1];
    if (!lang) {
      if (/^```/.test(lines[i]!)) while (++i < lines.length && !/^```\s*$/.test(lines[i]!));
      continue;
    }
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !/^```\s*$/.test(lines[i]!)) body.push(lines[i]!);
    let before = start - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const marker = /^<!-- snippet: (.*) -->$/.exec(lines[before] ?? '')?.[1] ?? '';
    const kind = lang === 'sh' || lang === 'bash' ? 'sh' : 'ts';
    const previous = found.findLast((snippet) => snippet.lang === kind);
    if (marker === 'continues' && previous) previous.code += `\n${body.join('\n')}`;
    else found.push({ doc, line: start + 1, lang: kind, code: body.join('\n'), skip: /^skip/.test(marker) ? marker : undefined });
  }
  return found;
}

let mock: MockServer;
let project: string;
/** An empty folder, neither the repo nor a project `init` filled. */
let elsewhere: string;
const cwd = process.cwd();

function forTheMock(code: string): string {
  return code.replace(/(?:http:\/\/)?(?:127\.0\.0\.1|localhost):4141/g, mock.url);
}

function asModule(code: string): string {
  // Imports repeated by a continued block are one import.
  const seen = new Set<string>();
  const lines = code.split('\n').filter((line) => !/^import /.test(line) || (!seen.has(line) && Boolean(seen.add(line))));
  return forTheMock(lines.join('\n'))
    .replaceAll("from 'model-gateway-mock'", `from '${join(ROOT, 'src', 'index.ts')}'`)
    .replaceAll("from 'vitest'", `from '${join(ROOT, 'test', 'helpers', 'snippet-vitest.ts')}'`);
}

beforeAll(ensureBuilt, 300_000);
beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'mgm-docs-'));
  elsewhere = mkdtempSync(join(tmpdir(), 'mgm-docs-elsewhere-'));
  init(project);
  mkdirSync(OUT, { recursive: true });
  mock = await startMockServer({ fixtures: join(project, 'fixtures'), scenarios: join(project, 'scenarios') });
  process.chdir(project);
});
afterAll(async () => {
  process.chdir(cwd);
  await mock?.close();
  rmSync(project, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});
beforeEach(async () => {
  // One snippet's scenario or journal is not the next one's.
  await fetch(`${mock.url}/__admin/scenario`, { method: 'DELETE' });
  await fetch(`${mock.url}/__admin/reset`, { method: 'POST' });
});

const documented = DOCS.map((doc) => [doc, snippetsOf(doc)] as const).filter(([, snippets]) => snippets.length > 0);

describe.each(documented)('%s', (doc, snippets) => {
  for (const snippet of snippets) {
    const title = `${snippet.lang} block at line ${snippet.line}`;
    if (snippet.skip) {
      // Visible in the report, with its reason, instead of run.
      it(`${title} (${snippet.skip})`, () => expect(snippet.skip).toMatch(/^skip \(.+\)$/));
      continue;
    }
    it(`${title} runs`, async () => {
      if (snippet.lang === 'sh') {
        const script = `set -euo pipefail\n${forTheMock(snippet.code).replaceAll('npx model-gateway-mock', `node ${COMMAND.join(' ')}`)}`;
        // Not execFileSync: the mock answering the script lives in this process.
        await promisify(execFile)('bash', ['-c', script], { cwd: project, timeout: 20_000 });
        return;
      }
      const file = join(OUT, `${doc.replace(/[/.]/g, '-')}-${snippet.line}.ts`);
      writeFileSync(file, asModule(snippet.code));
      // A README snippet is pasted into a file anywhere: it reads nothing relative to where it runs.
      if (doc === 'README.md') process.chdir(elsewhere);
      try {
        await import(/* @vite-ignore */ file);
        await runCollected(`${doc}-${snippet.line}`);
      } finally {
        process.chdir(project);
      }
    });
  }
});
