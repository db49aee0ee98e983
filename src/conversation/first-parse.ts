// A schema's first parse goes without zod's compiled fast path: zod generates and compiles a
// parser for each object schema at its first parse (a `new Function` per object), which costs more
// than the parse it speeds up when a schema is parsed once, as at a start (the configuration's
// files, the first answer's request). From its second parse on, a schema gets the compiled one.

const parsedBefore = new WeakSet<object>();

/** Whether this parse of `schema` is its first, and so goes without the compiled fast path (zod's `jitless`). */
export function firstParse(schema: object): boolean {
  if (parsedBefore.has(schema)) return false;
  parsedBefore.add(schema);
  return true;
}
