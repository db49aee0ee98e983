// Loading: parse every YAML file, validate it against the schema, compile it. Any problem is
// reported as file:line:col and the result has no config, so the caller keeps the last good one.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { ZodType } from 'zod';
import { formatPath } from '../conversation/field-path.js';
import { compileConfig, type ParsedFile } from './compile.js';
import { findYamlFiles, isDirectory } from './files.js';
import { checkAgainst } from './issues.js';
import { fixturesFileSchema, scenariosFileSchema } from './schema.js';
import type { Config, ConfigProblem } from './types.js';

export interface LoadOptions {
  /** Sections merge across all of them, in this order. */
  fixturesDirs: readonly string[];
  scenariosDirs: readonly string[];
}

export interface LoadResult {
  config?: Config;
  files: string[];
  problems: ConfigProblem[];
}

export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') ? file : rel;
}


/** The position of the deepest node that exists along `path`. */
function locate(doc: Document, counter: LineCounter, path: ReadonlyArray<PropertyKey>): { line: number; col: number } {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth) as unknown[], true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return counter.linePos(node.range[0]);
  }
  return { line: 1, col: 1 };
}

/**
 * `toJS` keeps a `__proto__` key as an own property, but the schema's records and objects drop
 * it without a word; a request body with one is refused, and so is a file.
 */
function refuseProtoKeys(doc: Document, counter: LineCounter, file: string, problems: ConfigProblem[]): boolean {
  let clean = true;
  visit(doc, {
    Pair(_, pair) {
      if (!isScalar(pair.key) || pair.key.value !== '__proto__') return;
      const { line, col } = counter.linePos(pair.key.range?.[0] ?? 0);
      problems.push({ file, line, col, message: '"__proto__" is not allowed as a key' });
      clean = false;
    },
  });
  return clean;
}

interface Source {
  file: string;
  doc: Document;
  counter: LineCounter;
}

function parse(file: string, schema: ZodType, problems: ConfigProblem[]): { source: Source; data: unknown } | undefined {
  const shown = displayPath(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    problems.push({ file: shown, line: 1, col: 1, message: `cannot be read: ${(error as Error).message}` });
    return undefined;
  }
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const { line, col } = counter.linePos(error.pos[0]);
      problems.push({ file: shown, line, col, message: error.message.split('\n')[0]! });
    }
    return undefined;
  }
  if (!refuseProtoKeys(doc, counter, shown, problems)) return undefined;
  const raw = doc.toJS({ maxAliasCount: 100 }) ?? {};
  const result = checkAgainst(schema, raw);
  if (result.issues) {
    for (const issue of result.issues) {
      const { line, col } = locate(doc, counter, issue.path);
      const where = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : '';
      problems.push({ file: shown, line, col, message: `${where}${issue.message}` });
    }
    return undefined;
  }
  return { source: { file, doc, counter }, data: result.data };
}

export function loadConfig(options: LoadOptions): LoadResult {
  const problems: ConfigProblem[] = [];
  const parsed: ParsedFile[] = [];
  const sources = new Map<string, Source>();
  const dirs: Array<[string, 'fixtures' | 'scenarios', ZodType]> = [
    ...options.fixturesDirs.map((dir) => [dir, 'fixtures', fixturesFileSchema] as [string, 'fixtures', ZodType]),
    ...options.scenariosDirs.map((dir) => [dir, 'scenarios', scenariosFileSchema] as [string, 'scenarios', ZodType]),
  ];
  const files: string[] = [];
  for (const [dir, kind, schema] of dirs) {
    if (!isDirectory(dir)) {
      problems.push({ file: displayPath(dir), line: 1, col: 1, message: `the ${kind} directory does not exist` });
      continue;
    }
    const found = findYamlFiles(dir);
    for (const refused of found.refused) problems.push({ file: displayPath(refused.file), line: 1, col: 1, message: refused.message });
    for (const file of found.files) {
      files.push(displayPath(file));
      const result = parse(file, schema, problems);
      if (!result) continue;
      sources.set(file, result.source);
      parsed.push({ file, dir, kind, data: result.data as ParsedFile['data'] });
    }
  }
  // Every file that parsed is compiled too, so that all problems of all files come in one report.
  const { config, errors } = compileConfig(parsed, options, files, problems.length === 0);
  for (const error of errors) {
    const source = sources.get(error.file);
    const { line, col } = source ? locate(source.doc, source.counter, error.path) : { line: 1, col: 1 };
    problems.push({ file: displayPath(error.file), line, col, message: `${formatPath(error.path)}: ${error.message}` });
  }
  if (problems.length === 0) return { files, problems, config };
  // Read file by file, top to bottom, whichever stage found each problem.
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col);
  return { files, problems };
}
