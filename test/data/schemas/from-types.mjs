// Turns the response types of an installed vendor SDK (its .d.ts) into JSON Schema definitions,
// closed to properties the types do not declare. Needs ts-json-schema-generator 2.4 (the last
// release that runs on Node 20), which is not a dependency of the project:
//   npm install --no-save ts-json-schema-generator@2.4.0
//   node from-types.mjs <entry .d.ts> <out.json> <Type>...
import { writeFileSync } from 'node:fs';
import { createGenerator } from 'ts-json-schema-generator';

const [path, out, ...types] = process.argv.slice(2);
const generator = createGenerator({ path, skipTypeCheck: true, expose: 'all', topRef: false, jsDoc: 'none', additionalProperties: false });
const definitions = {};
for (const type of types) {
  const { definitions: reached = {}, $schema: _draft, ...root } = generator.createSchema(type);
  Object.assign(definitions, reached);
  definitions[type] ??= root;
}
writeFileSync(out, `${JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', definitions })}\n`);
