// The command's code (dist/command.cjs, scripts/bundle.mjs) compiled as one classic script with
// V8's code cache (dist/command.cache, scripts/code-cache.mjs). Compiling the start's code was the
// largest part of a start's CPU, and Node 20 has no code cache for ES modules; a classic script
// takes one without a flag. The cache is made at build time after a first answer, so it holds the
// bytecode of every function that answer ran, not only of the code's top level. A cache V8 does not
// take (another Node, other V8 flags) or made from another script is left alone: the script is
// compiled as it would be without one.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { restoreHeapFlags } from './heap.js';

/** The names the script's code is given (the build wraps it in a function of these). */
export const SCRIPT_PARAMETERS = ['require', '__filename', '__dirname', '__import', '__importMeta'] as const;

/** Set (by scripts/code-cache.mjs) to the cache file a run writes as it exits. */
export const WRITE_CACHE_ENV = 'MODEL_GATEWAY_MOCK_WRITE_CODE_CACHE';

const STAMP_LENGTH = 64;

/**
 * The script's last line names the hash of the text before it, and a cache starts with the stamp of
 * the script it was made from: V8 itself checks only a source's length, so a cache of an older build
 * could otherwise be taken for a newer one of the same length.
 */
export function stampOf(body: string): string {
  return createHash('sha256').update(body).digest('hex');
}

/** The script as the build writes it: the code as a function of SCRIPT_PARAMETERS, then its stamp. */
export function wrapCommand(code: string): string {
  const body = `(function (${SCRIPT_PARAMETERS.join(', ')}) {${code}\n})`;
  return `${body}\n//${stampOf(body)}`;
}

/** The V8 data of `cache` if it was made from `source`. */
function cacheFor(source: string, cache: Buffer | undefined): Buffer | undefined {
  if (!cache || cache.length <= STAMP_LENGTH) return undefined;
  return cache.toString('latin1', 0, STAMP_LENGTH) === source.slice(-STAMP_LENGTH) ? cache.subarray(STAMP_LENGTH) : undefined;
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

export interface CompiledCommand {
  /** Whether V8 took the cache (false when there was none to give it). */
  readonly cacheTaken: boolean;
  /** Runs the command's code. */
  run(): void;
  /** The cache of everything compiled so far, stamped for this script. */
  cache(): Buffer;
}

/**
 * Compiles the script in `file` with the cache in `cacheFile` when it fits. `load` is the script's
 * `import()`: V8 refuses a dynamic import inside a `vm.Script` unless Node runs with
 * `--experimental-vm-modules`, so the build rewrites the script's `import(` to call this instead.
 */
export function compileCommand(file: string, cacheFile: string, load: (specifier: string) => Promise<unknown>): CompiledCommand {
  // The build writes the script in ASCII (esbuild escapes the rest): latin1 reads it without decoding.
  const source = readFileSync(file, 'latin1');
  const cachedData = cacheFor(source, readIfThere(cacheFile));
  const script = new Script(source, { filename: file, cachedData });
  const url = pathToFileURL(file).href;
  return {
    cacheTaken: cachedData !== undefined && !script.cachedDataRejected,
    run: () => (script.runInThisContext() as (...args: unknown[]) => void)(createRequire(file), file, dirname(file), load, { url }),
    cache: () => Buffer.concat([Buffer.from(source.slice(-STAMP_LENGTH), 'latin1'), script.createCachedData()]),
  };
}

/** Runs the command from the script beside this module; with WRITE_CACHE_ENV set, writes its cache on exit. */
export function runCommand(here: string, load: (specifier: string) => Promise<unknown>): void {
  const dir = dirname(fileURLToPath(here));
  const command = compileCommand(join(dir, 'command.cjs'), join(dir, 'command.cache'), load);
  const out = process.env[WRITE_CACHE_ENV];
  if (out) {
    process.on('exit', () => {
      // V8 stamps a cache with its flags, and a start reads it before the command sets its own.
      restoreHeapFlags();
      writeFileSync(out, command.cache());
    });
  }
  command.run();
}
