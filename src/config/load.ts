// Loading: parse every YAML file, validate it against the schema, compile it. Any problem is
// reported as file:line:col and the result has no config, so the caller keeps the last good one.
import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { ZodType } from 'zod';
import { formatPath } from '../conversation/field-path.js';
import { CONFIG_LIMITS, countEntries, refuseUnsafeNodes } from './bounds.js';
import { compileConfig, type ParsedFile } from './compile.js';
import { directoryProblem, findYamlFiles } from './files.js';
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
  /** A file changed while it was read: the result is not to be used, the load to be tried again. */
  changing?: boolean;
}

/** Thrown when a file kept changing while read: it is still being written. */
class StillChanging extends Error {}

/**
 * A file's text once two looks agree: its size and modification time are the same before and
 * after the read and the read got every byte, so a file being rewritten in place is never taken
 * half-written.
 */
function readSettled(file: string): string {
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = statSync(file);
    const bytes = readFileSync(file);
    const after = statSync(file);
    if (after.size === before.size && after.mtimeMs === before.mtimeMs && bytes.length === after.size) {
      return bytes.toString('utf8');
    }
  }
  throw new StillChanging();
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

interface Source {
  file: string;
  doc: Document;
  counter: LineCounter;
}

function parse(file: string, schema: ZodType, problems: ConfigProblem[]): { source: Source; data: unknown } | undefined {
  const shown = displayPath(file);
  let text: string;
  try {
    const size = statSync(file).size;
    if (size > CONFIG_LIMITS.fileBytes) {
      problems.push({ file: shown, line: 1, col: 1, message: `is ${size} bytes, over the limit of ${CONFIG_LIMITS.fileBytes} bytes for one file` });
      return undefined;
    }
    text = readSettled(file);
  } catch (error) {
    if (error instanceof StillChanging) throw error;
    problems.push({ file: shown, line: 1, col: 1, message: `cannot be read: ${(error as Error).message}` });
    return undefined;
  }
  const counter = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  } catch (error) {
    // The parser's own limits (a nesting too deep for its stack): a problem of the file, never a crash.
    problems.push({ file: shown, line: 1, col: 1, message: `cannot be parsed: ${(error as Error).message}` });
    return undefined;
  }
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const { line, col } = counter.linePos(error.pos[0]);
      problems.push({ file: shown, line, col, message: error.message.split('\n')[0]! });
    }
    return undefined;
  }
  if (!refuseUnsafeNodes(doc, counter, shown, problems)) return undefined;
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: CONFIG_LIMITS.aliases }) ?? {};
  } catch (error) {
    // The yaml library stops a "billion laughs" expansion with a ReferenceError.
    problems.push({ file: shown, line: 1, col: 1, message: `YAML aliases expand past the limit of ${CONFIG_LIMITS.aliases} (${(error as Error).message})` });
    return undefined;
  }
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
  let entries = 0;
  for (const [dir, kind, schema] of dirs) {
    const unusable = directoryProblem(dir);
    if (unusable) {
      problems.push({ file: displayPath(dir), line: 1, col: 1, message: `the ${kind} directory ${unusable}` });
      continue;
    }
    const found = findYamlFiles(dir);
    for (const refused of found.refused) problems.push({ file: displayPath(refused.file), line: 1, col: 1, message: refused.message });
    for (const file of found.files) {
      files.push(displayPath(file));
      let result: ReturnType<typeof parse>;
      try {
        result = parse(file, schema, problems);
      } catch (error) {
        if (error instanceof StillChanging) return { files, problems, changing: true };
        throw error;
      }
      if (!result) continue;
      entries = countEntries(result.source.doc, result.source.counter, displayPath(file), entries, problems);
      sources.set(file, result.source);
      parsed.push({ file, dir, kind, data: result.data as ParsedFile['data'] });
    }
  }
  // Every file that parsed is compiled too, so that all problems of all files come in one report.
  let compiled: ReturnType<typeof compileConfig>;
  try {
    compiled = compileConfig(parsed, options, files, problems.length === 0);
  } catch (error) {
    // Never a stack trace from `validate` or a reload: whatever went wrong is reported as a problem.
    problems.push({ file: displayPath(options.fixturesDirs[0] ?? '.'), line: 1, col: 1, message: `cannot be compiled: ${(error as Error).message}` });
    return { files, problems };
  }
  const { config, errors } = compiled;
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

/** For start-up and `validate`: tries again while a file is being written, then reports it. */
export function loadSettledConfig(options: LoadOptions): LoadResult {
  for (let attempt = 0; attempt < 20; attempt++) {
    const result = loadConfig(options);
    if (!result.changing) return result;
  }
  return { files: [], problems: [{ file: displayPath(options.fixturesDirs[0] ?? '.'), line: 1, col: 1, message: 'files kept changing while being read; load again once they are written' }] };
}
