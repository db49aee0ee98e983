// `model-gateway-mock init [DIR]`: the package's own fixtures and scenarios, media included, as a
// starting point in DIR. It never overwrites: a file already there is left alone and named.
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface InitReport {
  written: string[];
  skipped: string[];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

export function init(target: string): InitReport {
  const report: InitReport = { written: [], skipped: [] };
  for (const section of ['fixtures', 'scenarios']) {
    for (const source of filesUnder(join(PACKAGE_ROOT, section))) {
      const name = relative(PACKAGE_ROOT, source);
      const destination = resolve(target, name);
      if (existsSync(destination)) {
        report.skipped.push(name);
        continue;
      }
      mkdirSync(resolve(destination, '..'), { recursive: true });
      copyFileSync(source, destination);
      report.written.push(name);
    }
  }
  return report;
}
