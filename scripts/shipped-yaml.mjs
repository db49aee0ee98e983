// dist/shipped-yaml.json: the package's own fixtures and scenarios parsed as every file is parsed
// (`parseYaml` from the build), so that a start on them skips yaml's parser
// (src/config/shipped-yaml.ts). A file with a problem is left out: it is parsed, and reported, as
// any other.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const { parseYaml } = await import(`${root}dist/config/parse-file.js`);
const { digestOf, SHIPPED_YAML_FILE } = await import(`${root}dist/config/shipped-yaml.js`);

const shipped = [];
for (const dir of ['fixtures', 'scenarios']) {
  for (const name of readdirSync(join(root, dir)).filter((file) => /\.ya?ml$/.test(file)).sort()) {
    const text = readFileSync(join(root, dir, name), 'utf8');
    const parsed = parseYaml(text, `${dir}/${name}`);
    // Only what JSON carries back exactly (no Infinity, no undefined): else the file is parsed at start.
    if ('problems' in parsed || !isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data)), parsed.data)) continue;
    shipped.push({ length: text.length, sha256: digestOf(text), json: JSON.stringify(parsed.data) });
  }
}
writeFileSync(SHIPPED_YAML_FILE, `${JSON.stringify(shipped)}\n`);
