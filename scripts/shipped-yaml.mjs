// dist/shipped-yaml.json: the package's own fixtures and scenarios parsed as every file is parsed
// (`parseYaml` from the build), so that a start on them skips yaml's parser
// (src/config/shipped-yaml.ts), and checked and compiled as every file is, so that what only ajv
// checks (the fake tool servers' schemas and replies) is not checked again at every start. A file
// with a problem is left out: it is parsed, and reported, as any other.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const { parseYaml } = await import(`${root}dist/config/parse-file.js`);
const { digestOf, SHIPPED_YAML_FILE } = await import(`${root}dist/config/shipped-yaml.js`);
const { checkAgainst } = await import(`${root}dist/config/issues.js`);
const { compileFile } = await import(`${root}dist/config/compile.js`);
const { fixturesFileSchema, scenariosFileSchema } = await import(`${root}dist/config/schema.js`);
const SCHEMAS = { fixtures: fixturesFileSchema, scenarios: scenariosFileSchema };

/** Whether the data checks against its kind's schema and compiles without an error. */
function compiles(kind, dir, file, data) {
  const checked = checkAgainst(SCHEMAS[kind], data);
  return !checked.issues && compileFile({ file, dir, kind, data: checked.data }).errors.length === 0;
}

const shipped = [];
for (const dir of ['fixtures', 'scenarios']) {
  for (const name of readdirSync(join(root, dir)).filter((file) => /\.ya?ml$/.test(file)).sort()) {
    const text = readFileSync(join(root, dir, name), 'utf8');
    const parsed = parseYaml(text, `${dir}/${name}`);
    // Only what JSON carries back exactly (no Infinity, no undefined): else the file is parsed at start.
    if ('problems' in parsed || !isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data)), parsed.data)) continue;
    if (!compiles(dir, join(root, dir), join(root, dir, name), parsed.data)) continue;
    shipped.push({ length: text.length, sha256: digestOf(text), json: JSON.stringify(parsed.data) });
  }
}
writeFileSync(SHIPPED_YAML_FILE, `${JSON.stringify(shipped)}\n`);
