// dist/shipped-yaml.json: the package's own fixtures and scenarios parsed as every file is parsed
// (`parseYaml` from the build), so that a start on them skips yaml's parser
// (src/config/shipped-yaml.ts), and checked and compiled as every file is, so that what only ajv
// checks (the fake tool servers' schemas and replies) is not checked again at every start, nor the
// file against its directory's schema (its checked data is kept, when JSON carries it back), nor
// its patterns compiled before their first run (their named groups are kept). A file with a
// problem is left out: it is parsed, and reported, as any other.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const { parseYaml } = await import(`${root}dist/config/parse-file.js`);
const { digestOf, SHIPPED_YAML_FILE } = await import(`${root}dist/config/shipped-yaml.js`);
const { checkAgainst } = await import(`${root}dist/config/issues.js`);
const { compileFile } = await import(`${root}dist/config/compile.js`);
const { schemaOf } = await import(`${root}dist/config/schema.js`);
const { recordingPatterns } = await import(`${root}dist/conversation/pattern-work.js`);

/** Whether JSON carries `data` back exactly (no Infinity, no undefined, no RegExp). */
const carried = (data) => isDeepStrictEqual(JSON.parse(JSON.stringify(data)), data);

/** The data as its kind's schema checks it, if it checks and compiles without an error. */
function compiled(kind, dir, file, data) {
  const checked = checkAgainst(schemaOf(kind), data);
  return !checked.issues && compileFile({ file, dir, kind, data: checked.data }).errors.length === 0 ? checked : undefined;
}

const shipped = [];
for (const dir of ['fixtures', 'scenarios']) {
  for (const name of readdirSync(join(root, dir)).filter((file) => /\.ya?ml$/.test(file)).sort()) {
    const text = readFileSync(join(root, dir, name), 'utf8');
    const parsed = parseYaml(text, `${dir}/${name}`);
    if ('problems' in parsed || !carried(parsed.data)) continue;
    const { result: checked, patterns } = recordingPatterns(() => compiled(dir, join(root, dir), join(root, dir, name), parsed.data));
    if (!checked) continue;
    const kept = carried(checked.data) && { checked: { kind: dir, json: JSON.stringify(checked.data) } };
    shipped.push({ length: text.length, sha256: digestOf(text), json: JSON.stringify(parsed.data), ...kept, patterns });
  }
}
writeFileSync(SHIPPED_YAML_FILE, `${JSON.stringify(shipped)}\n`);
