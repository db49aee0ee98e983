// Loading: parse every YAML file, validate it against the schema, compile it. Any problem is
// reported as file:line:col and the result has no config, so the caller keeps the last good one.
import { readFileSync, statSync, type Stats } from 'node:fs';
import { relative } from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { ZodType } from 'zod';
import { formatPath } from '../conversation/field-path.js';
import { CONFIG_LIMITS, countEntries, refuseUnsafeNodes } from './bounds.js';
import { compileFile, mergeFiles, type CompiledFile, type ParsedFile } from './compile.js';
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

/** One file read, parsed and checked against its schema: its source and data, or its problems. */
interface FileParse {
  problems: ConfigProblem[];
  source?: Source;
  data?: unknown;
}

function parse(file: string, schema: ZodType, stat: Stats): FileParse {
  const problems: ConfigProblem[] = [];
  const failed = { problems };
  const shown = displayPath(file);
  let text: string;
  try {
    const size = stat.size;
    if (size > CONFIG_LIMITS.fileBytes) {
      problems.push({ file: shown, line: 1, col: 1, message: `is ${size} bytes, over the limit of ${CONFIG_LIMITS.fileBytes} bytes for one file` });
      return failed;
    }
    text = readSettled(file);
  } catch (error) {
    if (error instanceof StillChanging) throw error;
    problems.push({ file: shown, line: 1, col: 1, message: `cannot be read: ${(error as Error).message}` });
    return failed;
  }
  const counter = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  } catch (error) {
    // The parser's own limits (a nesting too deep for its stack): a problem of the file, never a crash.
    problems.push({ file: shown, line: 1, col: 1, message: `cannot be parsed: ${(error as Error).message}` });
    return failed;
  }
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const { line, col } = counter.linePos(error.pos[0]);
      problems.push({ file: shown, line, col, message: error.message.split('\n')[0]! });
    }
    return failed;
  }
  if (!refuseUnsafeNodes(doc, counter, shown, problems)) return failed;
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: CONFIG_LIMITS.aliases }) ?? {};
  } catch (error) {
    // The yaml library stops a "billion laughs" expansion with a ReferenceError.
    problems.push({ file: shown, line: 1, col: 1, message: `YAML aliases expand past the limit of ${CONFIG_LIMITS.aliases} (${(error as Error).message})` });
    return failed;
  }
  const result = checkAgainst(schema, raw);
  if (result.issues) {
    for (const issue of result.issues) {
      const { line, col } = locate(doc, counter, issue.path);
      const where = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : '';
      problems.push({ file: shown, line, col, message: `${where}${issue.message}` });
    }
    return failed;
  }
  return { problems, source: { file, doc, counter }, data: result.data };
}

/** A file as the last load left it: reused while its size, times and inode stay the same. */
interface CachedFile {
  stamp: string;
  parse: FileParse;
  /** Compiled once its parse is good; kept with it. */
  compiled?: CompiledFile;
}

/**
 * What a reload may reuse of the last one: each file's parse and compiled entries, by path and
 * kind, while the file is untouched. A save then costs that file and the merge, not every file.
 */
export class LoadCache {
  readonly files = new Map<string, CachedFile>();
}

function stampOf(stat: Stats): string {
  return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
}

function parseCached(file: string, kind: string, schema: ZodType, cache: LoadCache, seen: Set<string>): CachedFile {
  const key = `${kind}:${file}`;
  seen.add(key);
  let stat: Stats;
  try {
    stat = statSync(file);
  } catch (error) {
    const unreadable = { stamp: '', parse: { problems: [{ file: displayPath(file), line: 1, col: 1, message: `cannot be read: ${(error as Error).message}` }] } };
    cache.files.delete(key);
    return unreadable;
  }
  const stamp = stampOf(stat);
  const known = cache.files.get(key);
  if (known?.stamp === stamp) return known;
  const fresh: CachedFile = { stamp, parse: parse(file, schema, stat) };
  cache.files.set(key, fresh);
  return fresh;
}

export function loadConfig(options: LoadOptions, cache = new LoadCache()): LoadResult {
  const problems: ConfigProblem[] = [];
  const compiledFiles: CompiledFile[] = [];
  const sources = new Map<string, Source>();
  const dirs: Array<[string, 'fixtures' | 'scenarios', ZodType]> = [
    ...options.fixturesDirs.map((dir) => [dir, 'fixtures', fixturesFileSchema] as [string, 'fixtures', ZodType]),
    ...options.scenariosDirs.map((dir) => [dir, 'scenarios', scenariosFileSchema] as [string, 'scenarios', ZodType]),
  ];
  const files: string[] = [];
  const seen = new Set<string>();
  let entries = 0;
  try {
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
        let cached: CachedFile;
        try {
          cached = parseCached(file, kind, schema, cache, seen);
        } catch (error) {
          if (error instanceof StillChanging) return { files, problems, changing: true };
          throw error;
        }
        const { source, data } = cached.parse;
        problems.push(...cached.parse.problems);
        if (!source) continue;
        entries = countEntries(source.doc, source.counter, displayPath(file), entries, problems);
        sources.set(file, source);
        // Every file that parsed is compiled too, so that all problems of all files come in one report.
        try {
          cached.compiled ??= compileFile({ file, dir, kind, data: data as ParsedFile['data'] });
        } catch (error) {
          // Never a stack trace from `validate` or a reload: whatever went wrong is reported as a problem.
          problems.push({ file: displayPath(file), line: 1, col: 1, message: `cannot be compiled: ${(error as Error).message}` });
          continue;
        }
        compiledFiles.push(cached.compiled);
      }
    }
  } finally {
    for (const key of cache.files.keys()) if (!seen.has(key)) cache.files.delete(key);
  }
  let compiled: ReturnType<typeof mergeFiles>;
  try {
    compiled = mergeFiles(compiledFiles, options, files, problems.length === 0);
  } catch (error) {
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
export function loadSettledConfig(options: LoadOptions, cache?: LoadCache): LoadResult {
  for (let attempt = 0; attempt < 20; attempt++) {
    const result = loadConfig(options, cache);
    if (!result.changing) return result;
  }
  return { files: [], problems: [{ file: displayPath(options.fixturesDirs[0] ?? '.'), line: 1, col: 1, message: 'files kept changing while being read; load again once they are written' }] };
}
