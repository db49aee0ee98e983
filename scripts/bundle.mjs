// The command (the package's bin) as one classic script with its dependencies bundled in,
// dist/command.cjs, which dist/cli.js compiles with V8's code cache (src/command-script.ts; the
// cache is made by scripts/code-cache.mjs): a cold start loaded about 400 modules one by one (ours
// and zod's, koa's, yaml's), which took longer than everything else the start does, and then
// compiling ES module chunks was the largest part of what was left. What is loaded only when first
// needed (MCP, koa-body, prom-client, OpenTelemetry, the audio codecs) is in the script but
// evaluated at its first use (esbuild wraps a module imported with `import()`), in a chunk of its
// own in dist/chunks/ (FIRST_USE_CHUNKS), or left to Node (a package imported with `import()`, which
// Node loads with its own CommonJS interop). The library (`dist/index.js`) stays as tsc made it.
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { wrapCommand } from '../dist/command-script.js';

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

/**
 * Modules imported with `import()` that hold a large package and share no state with the rest (their
 * own imports of ours are pure): each is a chunk of its own, an ES module read only at its first use,
 * so a start neither reads nor compiles it. node-forge alone is 380 KB.
 */
const FIRST_USE_CHUNKS = { 'local-ca': 'src/server/tls/local-ca.ts', 'drift-report': 'src/drift-report.ts' };
const firstUseChunks = {
  name: 'first-use-chunks',
  setup(bundle) {
    bundle.onResolve({ filter: /^\./ }, ({ path, kind, resolveDir }) => {
      if (kind !== 'dynamic-import') return undefined;
      const source = join(resolveDir, path.replace(/\.js$/, '.ts'));
      const name = Object.keys(FIRST_USE_CHUNKS).find((chunk) => join(root, FIRST_USE_CHUNKS[chunk]) === source);
      return name ? { path: `./chunks/${name}.js`, external: true } : undefined;
    });
  },
};

/**
 * The script's `import(` made calls of `__import` (the bin's `import()`, src/command-script.ts). Found by
 * TypeScript's parser, so that the text `import(` in a string or a comment is left as it is.
 */
function importsCalled(code) {
  const file = ts.createSourceFile('command.cjs', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const starts = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) starts.push(node.expression.getStart(file));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return starts.reverse().reduce((text, start) => `${text.slice(0, start)}__import${text.slice(start + 'import'.length)}`, code);
}

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  logLevel: 'warning',
  // Without spaces and comments the code is about a third smaller (1.5 MB instead of 2.1 for the
  // chunks of ES modules that started the command before the script), and without a cache a start
  // parses every byte of it. Identifiers are not shortened: functions and classes
  // keep their names in stack traces and errors.
  minifyWhitespace: true,
  metafile: true,
};

const command = await build({
  ...common,
  entryPoints: ['src/cli.ts'],
  write: false,
  outfile: 'dist/command.cjs',
  format: 'cjs',
  // The script is given `__importMeta` with the url of its own file, in dist/ as the modules were.
  define: { 'import.meta': '__importMeta' },
  plugins: [firstUseChunks, lazyPackages, mimeTypesLater],
});
const [script] = command.outputFiles;
writeFileSync(script.path, wrapCommand(importsCalled(script.text.replace(/^#!.*\n/, ''))));

// The bin itself, and the chunks read at their first use: ES modules.
const modules = await build({
  ...common,
  entryPoints: { cli: 'src/bin.ts', ...Object.fromEntries(Object.entries(FIRST_USE_CHUNKS).map(([name, source]) => [`chunks/${name}`, source])) },
  outdir: 'dist',
  format: 'esm',
  // Bundled CommonJS packages call require(): an ES module has none of its own.
  banner: { js: "import { createRequire as __bundledRequire } from 'node:module'; const require = __bundledRequire(import.meta.url);" },
  plugins: [lazyPackages],
});
chmodSync(`${root}dist/cli.js`, 0o755);

/**
 * yaml's parser reads `process.env.LOG_TOKENS` at every token and its composer `LOG_STREAM` at every
 * document part, to print them when debugging the library; each read of `process.env` asks the
 * environment. 10,000 fixtures are 370,000 tokens, and those reads were a tenth of their parse. They
 * read as false here. A yaml whose files no longer hold them fails the build, so that it is looked at.
 */
const YAML_DEBUG_READS = { 'parse/parser.js': 'node_process.env.LOG_TOKENS', 'compose/composer.js': 'node_process.env.LOG_STREAM' };
const yamlWithoutDebugReads = {
  name: 'yaml-without-debug-reads',
  setup(bundle) {
    bundle.onLoad({ filter: /[/\\]node_modules[/\\]yaml[/\\]dist[/\\](parse[/\\]parser|compose[/\\]composer)\.js$/ }, ({ path }) => {
      const [file, read] = Object.entries(YAML_DEBUG_READS).find(([name]) => path.replaceAll('\\', '/').endsWith(`/yaml/dist/${name}`));
      const contents = readFileSync(path, 'utf8');
      const test = `if (${read})`;
      if (!contents.includes(test)) throw new Error(`yaml's ${file} no longer holds \`${test}\`: see yamlWithoutDebugReads in scripts/bundle.mjs`);
      return { contents: contents.replaceAll(test, 'if (false)'), loader: 'js' };
    });
  },
};

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
  plugins: [yamlWithoutDebugReads],
});

/** The package a bundled input is from. */
const packageOf = (input) => /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'model-gateway-mock';
const packagesOf = (inputs) => [...new Set(inputs.map(packageOf))].sort();

/** The script's inputs a start evaluates: those its entry imports statically, transitively. */
function evaluatedAtStart({ inputs }) {
  const seen = new Set();
  const visit = (input) => {
    if (seen.has(input)) return;
    seen.add(input);
    for (const entry of inputs[input].imports) if (!entry.external && entry.kind !== 'dynamic-import') visit(entry.path);
  };
  visit('src/cli.ts');
  return seen;
}

/**
 * What each written file holds, by its path under dist/ (the comments that named them are gone): the
 * files a start evaluates with it (`imports`; the bin compiles and runs the script), the packages
 * whose code it evaluates at a start (`packages`) and, in the script, those it holds for their first
 * use (`later`).
 */
const atStart = evaluatedAtStart(command.metafile);
const contents = {
  ...Object.fromEntries(
    Object.entries(modules.metafile.outputs).map(([file, output]) => [
      file.replace(/^dist\//, ''),
      { imports: file === 'dist/cli.js' ? ['command.cjs'] : [], packages: packagesOf(Object.keys(output.inputs)) },
    ]),
  ),
  'command.cjs': {
    imports: [],
    packages: packagesOf([...atStart]),
    later: packagesOf(Object.keys(command.metafile.inputs).filter((input) => !atStart.has(input))),
  },
};
writeFileSync(`${root}dist/chunks/contents.json`, `${JSON.stringify(contents, null, 1)}\n`);
