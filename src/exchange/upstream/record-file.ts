// A recorded fixtures file is written only when the loader would load it: an answer past a bound
// (a file over its size limit) is relayed but not recorded, and the log says why.
import { join } from 'node:path';
import { fixturesTextProblems } from '../../config/check-text.js';
import { formatProblem } from '../../config/store.js';
import { writeAtomically } from './relay.js';

/** Throws an Error naming the problems when the loader would refuse `text` as `file` under `dir`. */
export function writeRecordedFixtures(dir: string, file: string, text: string): void {
  const problems = fixturesTextProblems(text, join(dir, file), dir);
  if (problems.length > 0) throw new Error(`${file} is not recorded, as loading it would fail: ${problems.map(formatProblem).join('; ')}`);
  writeAtomically(dir, file, text);
}
