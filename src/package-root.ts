// Where the package's own files are (package.json, the shipped fixtures and scenarios, the
// inspector's ui/): found from this module's place, whether it runs compiled file by file in
// dist/, bundled into the command's chunks (dist/chunks/), or as source under a test runner.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const NAME = 'model-gateway-mock';

function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === NAME) return dir;
    if (dirname(dir) === dir) throw new Error(`${NAME}: no package.json of ${NAME} above ${from}`);
  }
}

export const PACKAGE_ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));

/** The package's version, as its package.json says. */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** A file or folder of the package: `packageFile('fixtures', 'models.yaml')`. */
export function packageFile(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}
