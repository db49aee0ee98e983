// Loading: parse every YAML file, validate it against the schema, compile it. Any problem is
// reported as file:line:col and the result has no config, so the caller keeps the last good one.
// A reload asks a Settling which changed files may be read yet; until one may, its last version
// stays in force (a new file stays out, a removed one stays in).
import { statSync, type Stats } from 'node:fs';
import { resolve, sep } from 'node:path';
import { formatPath } from '../conversation/field-path.js';
import { countEntries } from './bounds.js';
import { compileFile, mergeFiles, type CompiledFile, type ParsedFile } from './compile.js';
import { directoryProblem, findYamlFiles } from './files.js';
import { nameOrder } from './name-order.js';
import { displayPath, parseFile, stampOf, StillChanging, type FileKind, type FileParse, type Source } from './parse-file.js';
import { GONE, type Settling } from './settle.js';
import type { Config, ConfigProblem } from './types.js';

export { displayPath };

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
  /** With a Settling: some changed file is still settling, so its last version was used. */
  waiting?: boolean;
  /** With a Settling: some change was taken (a file read anew, or one gone). */
  taken?: boolean;
}

type Kind = FileKind;

/** A file as the last load left it: reused while its size, times and inode stay the same. */
interface CachedFile {
  file: string;
  dir: string;
  kind: Kind;
  stamp: string;
  parse: FileParse;
  /** Compiled once its parse is good; kept with it. */
  compiled?: CompiledFile;
}

const keyOf = (kind: Kind, file: string): string => `${kind}:${file}`;

/**
 * What a reload may reuse of the last one: each file's parse and compiled entries, by path and
 * kind, while the file is untouched. A save then costs that file and the merge, not every file.
 */
export class LoadCache {
  readonly files = new Map<string, CachedFile>();

  /** A fixtures file's data as its schema checked it, once loaded without problems. */
  fixturesData(file: string): unknown {
    return this.files.get(keyOf('fixtures', file))?.parse.data;
  }
}

/** One look over the directories: what it used, and whether it took or deferred a change. */
interface Look {
  cache: LoadCache;
  settling?: Settling;
  /** The clock before this look's stats: a stamp must have been seen that long before it. */
  at: number;
  seen: Set<string>;
  waiting: boolean;
  taken: boolean;
}

/** The version of `file` this look uses: undefined for a file that is not there or still new. */
function versionOf(file: string, dir: string, kind: Kind, look: Look): CachedFile | undefined {
  const key = keyOf(kind, file);
  const { cache, settling } = look;
  let stat: Stats;
  try {
    stat = statSync(file);
  } catch (error) {
    // Gone between the listing and the look: settled like any removal.
    if (settling && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    look.seen.add(key);
    cache.files.delete(key);
    return { file, dir, kind, stamp: '', parse: { problems: [{ file: displayPath(file), line: 1, col: 1, message: `cannot be read: ${(error as Error).message}` }] } };
  }
  look.seen.add(key);
  const stamp = stampOf(stat);
  const known = cache.files.get(key);
  if (known?.stamp === stamp) {
    settling?.unchanged(key);
    return known;
  }
  if (settling && !settling.mayRead(key, resolve(file), stamp, look.at)) {
    look.waiting = true;
    return known;
  }
  let fresh: CachedFile;
  try {
    fresh = { file, dir, kind, stamp, parse: parseFile(file, kind, stat) };
  } catch (error) {
    if (!(error instanceof StillChanging) || !settling) throw error;
    // Changed after it settled: its wait starts again from what the next look sees.
    settling.restart(key);
    look.waiting = true;
    return known;
  }
  look.taken = true;
  cache.files.set(key, fresh);
  return fresh;
}

/** The order the directory walk lists files in: by path, one folder name at a time. */
function walkOrder(a: string, b: string): number {
  const x = a.split(sep);
  const y = b.split(sep);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const order = nameOrder(x[i]!, y[i]!);
    if (order !== 0) return order;
  }
  return x.length - y.length;
}

/** The versions a look uses of one directory's files, in walk order, removed files still settling included. */
function versionsIn(dir: string, kind: Kind, found: string[], look: Look): CachedFile[] {
  const versions = found.map((file) => versionOf(file, dir, kind, look)).filter((v) => v !== undefined);
  const { cache, settling, seen } = look;
  let kept = false;
  for (const [key, cached] of cache.files) {
    if (cached.dir !== dir || cached.kind !== kind || seen.has(key)) continue;
    if (settling && !settling.mayRead(key, resolve(cached.file), GONE, look.at)) {
      seen.add(key);
      versions.push(cached);
      look.waiting = kept = true;
    } else {
      look.taken = true;
    }
  }
  return kept ? versions.sort((a, b) => walkOrder(a.file, b.file)) : versions;
}

/**
 * Loads every file; with `settling`, a changed file is read only once it has settled, and until
 * then the look uses its last version. Without it (start-up, `validate`) every file is read now.
 */
export function loadConfig(options: LoadOptions, cache = new LoadCache(), settling?: Settling): LoadResult {
  const problems: ConfigProblem[] = [];
  const compiledFiles: CompiledFile[] = [];
  const sources = new Map<string, Source>();
  const dirs: Array<[string, Kind]> = [
    ...options.fixturesDirs.map((dir) => [dir, 'fixtures'] as [string, Kind]),
    ...options.scenariosDirs.map((dir) => [dir, 'scenarios'] as [string, Kind]),
  ];
  const files: string[] = [];
  const look: Look = { cache, settling, at: settling?.now() ?? 0, seen: new Set(), waiting: false, taken: false };
  let entries = 0;
  try {
    for (const [dir, kind] of dirs) {
      const unusable = directoryProblem(dir);
      if (unusable) {
        problems.push({ file: displayPath(dir), line: 1, col: 1, message: `the ${kind} directory ${unusable}` });
        continue;
      }
      const found = findYamlFiles(dir);
      for (const refused of found.refused) problems.push({ file: displayPath(refused.file), line: 1, col: 1, message: refused.message });
      let versions: CachedFile[];
      try {
        versions = versionsIn(dir, kind, found.files, look);
      } catch (error) {
        if (error instanceof StillChanging) return { files, problems, changing: true };
        throw error;
      }
      for (const cached of versions) {
        const { file } = cached;
        files.push(displayPath(file));
        const { source, data, shipped } = cached.parse;
        problems.push(...cached.parse.problems);
        if (!source) continue;
        entries = countEntries(data, displayPath(file), source.at, entries, problems);
        sources.set(file, source);
        // Every file that parsed is compiled too, so that all problems of all files come in one report.
        try {
          cached.compiled ??= compileFile({ file, dir, kind, data: data as ParsedFile['data'], ...(shipped && { shipped }) });
        } catch (error) {
          // Never a stack trace from `validate` or a reload: whatever went wrong is reported as a problem.
          problems.push({ file: displayPath(file), line: 1, col: 1, message: `cannot be compiled: ${(error as Error).message}` });
          continue;
        }
        compiledFiles.push(cached.compiled);
      }
    }
  } finally {
    for (const key of cache.files.keys()) if (!look.seen.has(key)) cache.files.delete(key);
    settling?.endLook();
  }
  const { waiting, taken } = look;
  // Nothing settled yet, only files still being written: the configuration in force stays, unmerged.
  if (waiting && !taken) return { files, problems, waiting, taken };
  let compiled: ReturnType<typeof mergeFiles>;
  try {
    compiled = mergeFiles(compiledFiles, options, files, problems.length === 0);
  } catch (error) {
    problems.push({ file: displayPath(options.fixturesDirs[0] ?? '.'), line: 1, col: 1, message: `cannot be compiled: ${(error as Error).message}` });
    return { files, problems, waiting, taken };
  }
  const { config, errors } = compiled;
  for (const error of errors) {
    const source = sources.get(error.file);
    const { line, col } = source ? source.at(error.path) : { line: 1, col: 1 };
    problems.push({ file: displayPath(error.file), line, col, message: `${formatPath(error.path)}: ${error.message}` });
  }
  if (problems.length === 0) return { files, problems, config, waiting, taken };
  // Read file by file, top to bottom, whichever stage found each problem.
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col);
  return { files, problems, waiting, taken };
}

/** For start-up and `validate`: tries again while a file is being written, then reports it. */
export function loadSettledConfig(options: LoadOptions, cache?: LoadCache): LoadResult {
  for (let attempt = 0; attempt < 20; attempt++) {
    const result = loadConfig(options, cache);
    if (!result.changing) return result;
  }
  return { files: [], problems: [{ file: displayPath(options.fixturesDirs[0] ?? '.'), line: 1, col: 1, message: 'files kept changing while being read; load again once they are written' }] };
}
