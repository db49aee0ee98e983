// The loader's verdict on a fixtures file before the mock writes it itself (a recording, a pin): a
// file the loader would refuse is never written, so nothing the mock writes turns health degraded.
import { formatPath } from '../conversation/field-path.js';
import { CONFIG_LIMITS } from './bounds.js';
import { compileFile, type ParsedFile } from './compile.js';
import { displayPath, parseText } from './parse-file.js';
import type { ConfigProblem } from './types.js';

/** What loading `text` as `file` in the fixtures directory `dir` would report: none when it would load. */
export function fixturesTextProblems(text: string, file: string, dir: string): ConfigProblem[] {
  const shown = displayPath(file);
  const bytes = Buffer.byteLength(text);
  if (bytes > CONFIG_LIMITS.fileBytes) return [{ file: shown, line: 1, col: 1, message: `is ${bytes} bytes, over the limit of ${CONFIG_LIMITS.fileBytes} bytes for one file` }];
  const parsed = parseText(text, file, 'fixtures');
  const source = parsed.source;
  if (!source) return parsed.problems;
  try {
    const { errors } = compileFile({ file, dir, kind: 'fixtures', data: parsed.data as ParsedFile['data'] });
    return errors.map((error) => ({ file: shown, ...source.at(error.path), message: `${formatPath(error.path)}: ${error.message}` }));
  } catch (error) {
    return [{ file: shown, line: 1, col: 1, message: `cannot be compiled: ${(error as Error).message}` }];
  }
}
