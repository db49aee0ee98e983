// The command (`dist/cli.js`, the package's bin) as one entry with its dependencies bundled in,
// written over the file tsc made: a cold start loaded about 400 modules one by one (ours and
// zod's, koa's, yaml's), which took longer than everything else the start does. What is loaded
// only when first needed (MCP, koa-body, prom-client, OpenTelemetry, the audio codecs) stays a
// separate chunk in dist/chunks/ (our modules) or is left to Node (a package imported with
// `import()`, which Node loads with its own CommonJS interop), loaded then. The library
// (`dist/index.js`) stays as tsc made it.
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;

rmSync(`${root}dist/chunks`, { recursive: true, force: true });
rmSync(`${root}dist/cli.js.map`, { force: true });
/** A package imported with `import()` is loaded by Node when first needed, not bundled. */
const lazyPackages = {
  name: 'lazy-packages',
  setup(bundle) {
    bundle.onResolve({ filter: /^[^./]/ }, ({ path, kind }) => (kind === 'dynamic-import' ? { path, external: true } : undefined));
  },
};

/**
 * `mime-types` loaded at its first use (scripts/mime-types-later.cjs), from node_modules, and one copy of it: koa's
 * `accepts@1` brings `mime-types@2` with a table of its own beside koa's `mime-types@3`, and
 * `accepts` calls only `lookup`, the same in both.
 */
const mimeTypesLater = {
  name: 'mime-types-later',
  setup(bundle) {
    bundle.onResolve({ filter: /^mime-types$/ }, ({ kind }) => (kind === 'require-call' ? { path: `${root}scripts/mime-types-later.cjs` } : undefined));
    // The real one is left to Node at that first use: bundled, its table (mime-db, 230 KB of
    // JavaScript) was compiled at every start; Node reads it as JSON when it is first asked.
    bundle.onResolve({ filter: /^mime-types\/index\.js$/ }, () => ({ path: 'mime-types/index.js', external: true }));
  },
};

const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Bundled CommonJS packages call require(): an ES module has none of its own.
  banner: { js: "import { createRequire as __bundledRequire } from 'node:module'; const require = __bundledRequire(import.meta.url);" },
  plugins: [lazyPackages, mimeTypesLater],
  logLevel: 'warning',
  // Without spaces and comments the chunks a start loads are 1.5 MB instead of 2.1, and a start
  // decodes and pre-parses every byte of them. Identifiers are not shortened: functions and
  // classes keep their names in stack traces and errors.
  minifyWhitespace: true,
  metafile: true,
});
chmodSync(`${root}dist/cli.js`, 0o755);

// yaml as one CommonJS file, which src/conversation/yaml.ts loads at the first YAML it parses or
// writes: a start on the package's own files needs none, and the package's own modules, loaded one
// by one, cost several times this file's read and compile.
await build({
  absWorkingDir: root,
  stdin: { contents: "module.exports = require('yaml');", resolveDir: root },
  outfile: 'dist/yaml.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  logLevel: 'warning',
  minifyWhitespace: true,
});

/** The packages each written file holds, by its path under dist/ (the comments that named them are gone). */
const packageOf = (input) => /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'model-gateway-mock';
const contents = Object.fromEntries(
  Object.entries(metafile.outputs).map(([file, output]) => [
    file.replace(/^dist\//, ''),
    {
      imports: output.imports.filter((entry) => entry.kind === 'import-statement' && !entry.external).map((entry) => entry.path.replace(/^dist\//, '')),
      packages: [...new Set(Object.keys(output.inputs).map(packageOf))].sort(),
    },
  ]),
);
writeFileSync(`${root}dist/chunks/contents.json`, `${JSON.stringify(contents, null, 1)}\n`);
