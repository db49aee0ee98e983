// `POST /__admin/fixtures?file=NAME.yaml`: the posted document written as a file into the fixtures
// directory instead of held by a session, so it outlives the run; the reload that follows checks
// it as any file is checked, and a file the loader refuses is taken back out.
import { unlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import { stringify } from 'yaml';
import { failure } from '../../conversation/errors.js';
import { displayPath } from '../../config/load.js';
import { formatProblem } from '../../config/store.js';
import type { Mock } from '../mock.js';

const YAML_NAME = /\.ya?ml$/;

function checkedName(name: string): string {
  const clean = normalize(name);
  if (isAbsolute(name) || clean.split(/[\\/]/).includes('..') || !YAML_NAME.test(clean)) {
    throw failure('invalid_fixture_file', `The file name '${name}' must be a relative path inside the fixtures directory, without '..', ending in .yaml or .yml.`, { param: 'file' });
  }
  return clean;
}

function writeNew(path: string, text: string): void {
  try {
    writeFileSync(path, text, { flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw failure('fixture_file_exists', `${displayPath(path)} already exists; it was left unchanged. Choose another name.`, { param: 'file', status: 409 });
    if (code === 'ENOENT') throw failure('invalid_fixture_file', `The folder of ${displayPath(path)} does not exist.`, { param: 'file' });
    throw error;
  }
}

export function saveFixturesFile(mock: Mock, name: string, document: unknown): unknown {
  const path = join(mock.store.current.fixturesDir, checkedName(name));
  writeNew(path, stringify(document ?? {}));
  // Reloading now, not when the watcher notices, makes the file answer the very next request.
  mock.store.reload();
  const shown = displayPath(path);
  const problems = mock.store.problems.filter((problem) => problem.file === shown);
  if (problems.length > 0) {
    unlinkSync(path);
    mock.store.reload();
    throw failure('invalid_fixtures', `The fixtures are not valid, so ${shown} was not kept: ${problems.map(formatProblem).join('; ')}.`);
  }
  const config = mock.store.current;
  const fixtures = [...config.chat, ...config.images, ...config.videos].filter((f) => f.file === path).map((f) => f.name);
  return { file: shown, fixtures };
}
