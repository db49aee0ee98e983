// Fixtures written as files into the first fixtures directory, where loading picks them up: a
// pinned journal entry (request-fixture.ts) or a document posted to `POST /__admin/fixtures?file=`.
// A name is a plain NAME.yaml, never a path out of the directory; an existing file is left alone.
import { unlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { failure } from '../../conversation/errors.js';
import { yaml } from '../../conversation/yaml.js';
import { CONFIG_LIMITS } from '../../config/bounds.js';
import { displayPath } from '../../config/load.js';
import { formatProblem } from '../../config/store.js';
import type { Mock } from '../mock.js';

const FILE_NAME = /^[\w-][\w.-]*\.ya?ml$/;
/** Characters of a name: file systems take 255 bytes at most, and nobody types more than this. */
const NAME_CHARS = 128;

function badFile(file: string, why: string) {
  return failure('invalid_fixture_file', `"file" ${JSON.stringify(file)} ${why}.`, { param: 'file' });
}

/** A plain name in the first fixtures directory, one that loading picks up; never a path outside it. */
export function fixturePath(fixturesDir: string, file: unknown): { path: string; name: string } {
  if (typeof file !== 'string' || file === '') throw failure('invalid_fixture_file', 'Send { "file": "NAME.yaml" }.', { param: 'file' });
  if (isAbsolute(file) || file.includes('..')) throw badFile(file, 'must be a name in the fixtures directory, without ".." or a leading "/"');
  if (file.length > NAME_CHARS) throw badFile(`${file.slice(0, 40)}...`, `is ${file.length} characters long; a name has at most ${NAME_CHARS}`);
  if (!FILE_NAME.test(file)) throw badFile(file, 'must be NAME.yaml or NAME.yml: letters, digits, "-", "_" and ".", not starting with "." and without folders');
  return { path: join(fixturesDir, file), name: file.replace(/\.ya?ml$/, '') };
}

/** Writes a file that must not exist yet: an existing one is a 409 and stays as it is. */
export function writeNewFixtureFile(path: string, file: string, text: string): void {
  try {
    writeFileSync(path, text, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw failure('fixture_file_exists', `"${file}" is already in the fixtures directory; it is left as it is. Choose another name.`, {
      param: 'file',
      status: 409,
    });
  }
}

/**
 * `POST /__admin/fixtures?file=NAME.yaml`: the posted document as a file. The reload that follows
 * at once (not when the watcher notices) checks it as any file is checked and makes it answer the
 * very next request; a file the loader refuses is taken back out.
 */
export function saveFixturesFile(mock: Mock, file: string, document: unknown): unknown {
  const { path } = fixturePath(mock.store.current.fixturesDirs[0]!, file);
  const text = yaml().stringify(document ?? {});
  // The loader would refuse it, but only after it was written and read back.
  if (Buffer.byteLength(text) > CONFIG_LIMITS.fileBytes) {
    throw failure('request_too_large', `The fixtures document is ${Buffer.byteLength(text)} bytes as YAML, past the limit of ${CONFIG_LIMITS.fileBytes} bytes of a fixtures file; ${file} was not written.`, { param: 'file' });
  }
  writeNewFixtureFile(path, file, text);
  mock.store.loadOwnWrite(path);
  const shown = displayPath(path);
  const problems = mock.store.problems.filter((problem) => problem.file === shown);
  if (problems.length > 0) {
    unlinkSync(path);
    mock.store.loadOwnWrite(path);
    throw failure('invalid_fixtures', `The fixtures are not valid, so ${shown} was not kept: ${problems.map(formatProblem).join('; ')}.`);
  }
  const config = mock.store.current;
  const fixtures = [...config.chat, ...config.images, ...config.videos, ...config.embeddings, ...config.moderations].filter((f) => f.file === path).map((f) => f.name);
  return { file: shown, fixtures };
}
