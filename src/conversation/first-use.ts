// A package loaded when it is first called for, not when the command starts: Node loads it from
// node_modules then, outside the command's bundle, so a start compiles none of it. For what a
// fixture hit never needs (faker's data, ajv); a package with top-level await cannot be loaded so.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** The package (or package path) `name`, loaded at the first call and kept. */
export function atFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(name) as T);
}
