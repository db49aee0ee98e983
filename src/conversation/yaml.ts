// The yaml library, loaded at its first use: a start on the package's own files parses no YAML (the
// build did: scripts/shipped-yaml.mjs), and yaml was 165 KB of the code every start compiled and
// ran. The build writes it as one file (dist/yaml.cjs, scripts/bundle.mjs), so a first use reads
// that file instead of the package's seventy-odd modules one by one (several times the time);
// the sources not built use the package.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { packageFile } from '../package-root.js';
import { madeAtFirstUse } from './first-use.js';

export const YAML_FILE = packageFile('dist', 'yaml.cjs');

const load = createRequire(import.meta.url);

export const yaml = madeAtFirstUse(() => load(existsSync(YAML_FILE) ? YAML_FILE : 'yaml') as typeof import('yaml'));
