// Finding YAML files and resolving file references, never leaving the configured directory:
// a symlink or a `../` that points outside is refused.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return !isAbsolute(rel) && rel.split(sep)[0] !== '..';
}

export interface FoundFiles {
  files: string[];
  /** Files refused (outside the directory through a link, unreadable). */
  refused: Array<{ file: string; message: string }>;
}

/** Every `*.yaml` / `*.yml` below `dir`, sorted by path, as absolute paths. */
export function findYamlFiles(dir: string): FoundFiles {
  const found: FoundFiles = { files: [], refused: [] };
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    return found;
  }
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.')) continue;
      const path = join(current, entry.name);
      let real: string;
      try {
        real = realpathSync(path);
      } catch (error) {
        found.refused.push({ file: path, message: `cannot be read: ${(error as Error).message}` });
        continue;
      }
      if (!isInside(root, real)) {
        found.refused.push({ file: path, message: 'links outside the directory and is not loaded' });
        continue;
      }
      const stat = statSync(real);
      if (stat.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (/\.ya?ml$/i.test(entry.name)) {
        found.files.push(path);
      }
    }
  };
  walk(dir);
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
  if (!statSync(real).isFile()) throw new Error(`"${reference}" is not a file`);
  return real;
}
