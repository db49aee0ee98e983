// A package loaded when it is first called for, not when the command starts: Node loads it from
// node_modules then, outside the command's bundle, so a start compiles none of it. For what a
// fixture hit never needs (faker's data, ajv); a package with top-level await cannot be loaded so.
// Likewise a value of our own that is costly to make and that a start does not need.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** The package (or package path) `name`, loaded at the first call and kept. */
export function atFirstUse<T>(name: string): () => T {
  return madeAtFirstUse(() => load(name) as T);
}

/** What `make` returns, made at the first call and kept: for what a start does not need (schemas). */
export function madeAtFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
