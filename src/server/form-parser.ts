// The parser of forms, multipart and other charsets (koa-body, with formidable and co-body),
// loaded in parts after the server listens.
import { createRequire } from 'node:module';
import { afterPoll } from '../state/event-loop.js';

// koa-body (with formidable) is not loaded with the server: it took longer to load than the rest
// of it. The server loads it once listening (`loadFormParser`), off the first upload's path; a body
// that is not plain JSON before then waits for it. Loaded at once, its modules held the loop for
// 100 ms in one turn, most of it the zod koa-body checks its options with (not the command's own,
// which is bundled), then formidable's ids (cuid2 hashing with sha3) and qs: its dependencies are
// loaded first, leaves first, a turn each, the loop polled for I/O between them, so that requests
// are served between the parts. Each is loaded as its importer loads it: `import` for an ES module,
// `require` for CommonJS, else it would be a second copy.
const FORM_PARSER_PARTS: ReadonlyArray<readonly [string, 'import' | 'require']> = [
  ['zod/v4/core', 'import'],
  ['zod', 'import'],
  ['get-intrinsic', 'require'],
  ['side-channel', 'require'],
  ['qs', 'require'],
  ['iconv-lite', 'require'],
  ['raw-body', 'require'],
  ['co-body', 'require'],
  ['@noble/hashes/sha3', 'require'],
  ['@paralleldrive/cuid2', 'require'],
  ['formidable', 'import'],
];

const requirePart = createRequire(import.meta.url);

let formParser: Promise<typeof import('koa-body')> | undefined;

async function formParserInParts(): Promise<typeof import('koa-body')> {
  for (const [part, how] of FORM_PARSER_PARTS) {
    // Found from here as koa-body finds them in an installation with its dependencies side by side;
    // one not found is left to koa-body to load.
    try {
      await (how === 'import' ? import(part) : requirePart(part));
    } catch {
      // Not found from here.
    }
    await afterPoll();
  }
  return import('koa-body');
}

/** Loads the parser of forms, multipart and other charsets, once per process. */
export function loadFormParser(): Promise<typeof import('koa-body')> {
  return (formParser ??= formParserInParts());
}
