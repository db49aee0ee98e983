// Finding YAML files and resolving file references, never leaving the configured directory:
// a symlink or a `../` that points outside is refused, and so is a file with more than one hard
// link: a hard link has no "other" path to check, so one to a file outside cannot be told from
// one inside, and the only safe rule is to serve files that have a single name.
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { nameOrder } from './name-order.js';

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return !isAbsolute(rel) && rel.split(sep)[0] !== '..';
}

export interface FoundFiles {
  files: string[];
  /** Files refused (outside the directory through a link, unreadable). */
  refused: Array<{ file: string; message: string }>;
}

/** Why `path` cannot serve as a directory of files, or undefined when it can. */
export function directoryProblem(path: string): string | undefined {
  try {
    return statSync(path).isDirectory() ? undefined : 'is not a directory';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? (error as Error).message})`;
  }
}

/**
 * Every `*.yaml` / `*.yml` below `dir`, sorted by path, as absolute paths. Only regular files are
 * read (a FIFO named x.yaml would block the loader for good), and each directory once, so a link
 * back up the tree cannot make the walk go round.
 */
export function findYamlFiles(dir: string): FoundFiles {
  const found: FoundFiles = { files: [], refused: [] };
  let root: string;
  try {
    root = realpathSync(dir);
    readdirSync(root);
  } catch (error) {
    // A directory gone or unreadable is a problem, not an empty configuration that drops every fixture.
    found.refused.push({ file: dir, message: `cannot be read: ${(error as Error).message}` });
    return found;
  }
  const walked = new Set<string>();
  const walk = (current: string, real: string): void => {
    walked.add(real);
    let entries: Dirent[];
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch (error) {
      found.refused.push({ file: current, message: `cannot be read: ${(error as Error).message}` });
      return;
    }
    for (const entry of entries.sort((a, b) => nameOrder(a.name, b.name))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(current, entry.name);
      const yaml = /\.ya?ml$/i.test(entry.name);
      let target: string;
      let stat: Stats;
      try {
        target = realpathSync(path);
        stat = statSync(target);
      } catch (error) {
        if (yaml || entry.isSymbolicLink()) found.refused.push({ file: path, message: `cannot be read: ${(error as Error).message}` });
        continue;
      }
      if (!isInside(root, target)) {
        found.refused.push({ file: path, message: 'links outside the directory and is not loaded' });
      } else if (stat.isDirectory()) {
        if (walked.has(target)) found.refused.push({ file: path, message: 'links to a directory already loaded and is not loaded again' });
        else walk(path, target);
      } else if (yaml) {
        if (stat.isFile()) found.files.push(path);
        else found.refused.push({ file: path, message: 'is not a regular file and is not loaded' });
      }
    }
  };
  walk(dir, root);
  return found;
}

/** Resolves a file reference of a fixture; throws an Error when it leaves `dir` or is not a file. */
export function resolveInside(dir: string, reference: string): string {
  const root = realpathSync(dir);
  const target = resolve(root, reference);
  if (!isInside(root, target)) throw new Error(`"${reference}" is outside the fixtures directory`);
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    throw new Error(`"${reference}" does not exist under the fixtures directory`);
  }
  if (!isInside(root, real)) throw new Error(`"${reference}" links outside the fixtures directory`);
  const stat = statSync(real);
  if (!stat.isFile()) throw new Error(`"${reference}" is not a file`);
  if (stat.nlink > 1) throw new Error(`"${reference}" has ${stat.nlink} hard links, which may lie outside the fixtures directory; give it a single name`);
  return real;
}

/**
 * The bytes of a file reference, confined at the moment they are read: resolved inside `dir` as
 * at load, then opened without following a link and checked to be the very file resolved (the
 * same device and inode, one name), so a link swapped in after the check is never followed.
 * Throws an Error saying why the file is refused.
 */
export function readConfined(dir: string, reference: string): Buffer {
  const real = resolveInside(dir, reference);
  const fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const opened = fstatSync(fd);
    const named = statSync(real);
    if (!opened.isFile() || opened.nlink !== 1 || opened.dev !== named.dev || opened.ino !== named.ino || realpathSync(real) !== real) {
      throw new Error(`"${reference}" changed while it was opened and is not served`);
    }
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
