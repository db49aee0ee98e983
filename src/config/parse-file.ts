// One YAML file read, parsed and checked against its schema: its source (for positions) and data,
// or its problems at file:line:col. The file is read at exactly the stamp the caller saw, so a file
// being rewritten is never taken half-written.
import { closeSync, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { relative } from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { ZodType } from 'zod';
import { formatPath } from '../conversation/field-path.js';
import { CONFIG_LIMITS, refuseUnsafeNodes } from './bounds.js';
import { checkAgainst } from './issues.js';
import type { ConfigProblem } from './types.js';

export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') ? file : rel;
}

/** Thrown when a file is not at the stamp it was seen at: it is still being written. */
export class StillChanging extends Error {}

/** What tells one version of a file from another: size, modification and change times, inode. */
export function stampOf(stat: Stats): string {
  return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
}

/** The file's text at `stamp`: the open file has that stamp before and after the read, and every byte was read. */
function readStamped(file: string, stamp: string): string {
  const fd = openSync(file, 'r');
  try {
    if (stampOf(fstatSync(fd)) !== stamp) throw new StillChanging();
    const bytes = readFileSync(fd);
    const after = fstatSync(fd);
    if (stampOf(after) !== stamp || bytes.length !== after.size) throw new StillChanging();
    return bytes.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The position of the deepest node that exists along `path`. */
export function locate(doc: Document, counter: LineCounter, path: ReadonlyArray<PropertyKey>): { line: number; col: number } {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth) as unknown[], true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return counter.linePos(node.range[0]);
  }
  return { line: 1, col: 1 };
}

export interface Source {
  file: string;
  doc: Document;
  counter: LineCounter;
}

/** One file read, parsed and checked against its schema: its source and data, or its problems. */
export interface FileParse {
  problems: ConfigProblem[];
  source?: Source;
  data?: unknown;
}

/** Reads `file` at the stamp of `stat` (else StillChanging) and parses it. */
export function parseFile(file: string, schema: ZodType, stat: Stats): FileParse {
  const shown = displayPath(file);
  if (stat.size > CONFIG_LIMITS.fileBytes) {
    return { problems: [{ file: shown, line: 1, col: 1, message: `is ${stat.size} bytes, over the limit of ${CONFIG_LIMITS.fileBytes} bytes for one file` }] };
  }
  let text: string;
  try {
    text = readStamped(file, stampOf(stat));
  } catch (error) {
    if (error instanceof StillChanging) throw error;
    return { problems: [{ file: shown, line: 1, col: 1, message: `cannot be read: ${(error as Error).message}` }] };
  }
  return parseText(text, file, schema);
}

/** A file's text parsed and checked as `file`. */
export function parseText(text: string, file: string, schema: ZodType): FileParse {
  const problems: ConfigProblem[] = [];
  const failed = { problems };
  const shown = displayPath(file);
  const counter = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  } catch (error) {
    // The parser's own limits (a nesting too deep for its stack): a problem of the file, never a crash.
    problems.push({ file: shown, line: 1, col: 1, message: `cannot be parsed: ${(error as Error).message}` });
    return failed;
  }
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const { line, col } = counter.linePos(error.pos[0]);
      problems.push({ file: shown, line, col, message: error.message.split('\n')[0]! });
    }
    return failed;
  }
  if (!refuseUnsafeNodes(doc, counter, shown, problems)) return failed;
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: CONFIG_LIMITS.aliases }) ?? {};
  } catch (error) {
    // The yaml library stops a "billion laughs" expansion with a ReferenceError.
    problems.push({ file: shown, line: 1, col: 1, message: `YAML aliases expand past the limit of ${CONFIG_LIMITS.aliases} (${(error as Error).message})` });
    return failed;
  }
  const result = checkAgainst(schema, raw);
  if (result.issues) {
    for (const issue of result.issues) {
      const { line, col } = locate(doc, counter, issue.path);
      const where = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : '';
      problems.push({ file: shown, line, col, message: `${where}${issue.message}` });
    }
    return failed;
  }
  return { problems, source: { file, doc, counter }, data: result.data };
}
