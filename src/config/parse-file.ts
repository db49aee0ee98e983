// One YAML file read, parsed and checked against its schema: its source (for positions) and data,
// or its problems at file:line:col. The file is read at exactly the stamp the caller saw, so a file
// being rewritten is never taken half-written.
import { closeSync, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { relative } from 'node:path';
import type { Document, LineCounter } from 'yaml';
import { formatPath } from '../conversation/field-path.js';
import { yaml } from '../conversation/yaml.js';
import { CONFIG_LIMITS, mayBeUnsafe, refuseUnsafeNodes } from './bounds.js';
import { checkAgainst } from './issues.js';
import { schemaOf } from './schema.js';
import { shippedFile } from './shipped-yaml.js';
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

/** A parsed document and what turns its offsets into lines and columns. */
interface Positions {
  doc: Document;
  counter: LineCounter;
}

function parsed(text: string): Positions {
  const { LineCounter, parseDocument } = yaml();
  const counter = new LineCounter();
  return { doc: parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true }), counter };
}

/** The position of the deepest node that exists along `path`. */
function locate({ doc, counter }: Positions, path: ReadonlyArray<PropertyKey>): { line: number; col: number } {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth) as unknown[], true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return counter.linePos(node.range[0]);
  }
  return { line: 1, col: 1 };
}

/**
 * A file that parsed, for the positions of problems found later (the merged configuration's, a
 * bound over all files): its text is parsed again only when one is asked for, so a loaded
 * configuration holds no parsed document.
 */
export interface Source {
  file: string;
  at(path: ReadonlyArray<PropertyKey>): { line: number; col: number };
}

function sourceOf(file: string, text: string): Source {
  let positions: Positions | undefined;
  return { file, at: (path) => locate((positions ??= parsed(text)), path) };
}

/** One file read, parsed and checked: its source and data, or its problems. */
export interface FileParse {
  problems: ConfigProblem[];
  source?: Source;
  data?: unknown;
  /** Its text is one of the package's own files, parsed and compiled without a problem at build. */
  shipped?: true;
}

/**
 * A text as YAML, as every file is read: its data, or its problems (the parser's, a `__proto__`
 * key, a string past its bound, aliases that expand past theirs), each at its position.
 */
export function parseYaml(text: string, shown: string): { data: unknown; positions: Positions } | { problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  let positions: Positions;
  try {
    positions = parsed(text);
  } catch (error) {
    // The parser's own limits (a nesting too deep for its stack): a problem of the file, never a crash.
    return { problems: [{ file: shown, line: 1, col: 1, message: `cannot be parsed: ${(error as Error).message}` }] };
  }
  const { doc, counter } = positions;
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const { line, col } = counter.linePos(error.pos[0]);
      problems.push({ file: shown, line, col, message: error.message.split('\n')[0]! });
    }
    return { problems };
  }
  // The unsafe nodes come first, then the aliases, as ever; the nodes are visited only when the
  // plain data may hold one (`mayBeUnsafe`) or the data could not be made.
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: CONFIG_LIMITS.aliases }) ?? {};
  } catch (error) {
    if (!refuseUnsafeNodes(doc, counter, shown, problems)) return { problems };
    // The yaml library stops a "billion laughs" expansion with a ReferenceError.
    return { problems: [{ file: shown, line: 1, col: 1, message: `YAML aliases expand past the limit of ${CONFIG_LIMITS.aliases} (${(error as Error).message})` }] };
  }
  if (mayBeUnsafe(data) && !refuseUnsafeNodes(doc, counter, shown, problems)) return { problems };
  return { data, positions };
}

/** What a file is checked as: the kind of the directory it is in. */
export type FileKind = 'fixtures' | 'scenarios';

/** Reads `file` at the stamp of `stat` (else StillChanging) and parses it. */
export function parseFile(file: string, kind: FileKind, stat: Stats): FileParse {
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
  return parseText(text, file, kind);
}

/**
 * A file's text parsed and checked as `file`; a shipped file's data is taken as it was parsed at
 * build, and as it was checked there when it is read as the kind it ships as.
 */
export function parseText(text: string, file: string, kind: FileKind): FileParse {
  const shown = displayPath(file);
  const snapshot = shippedFile(text);
  if (snapshot?.checked?.kind === kind) return { problems: [], source: sourceOf(file, text), data: JSON.parse(snapshot.checked.json), shipped: true };
  let raw: unknown = snapshot && JSON.parse(snapshot.json);
  let positions: Positions | undefined;
  if (!snapshot) {
    const parsed = parseYaml(text, shown);
    if ('problems' in parsed) return { problems: parsed.problems };
    ({ data: raw, positions } = parsed);
  }
  const result = checkAgainst(schemaOf(kind), raw);
  if (result.issues) {
    const problems = result.issues.map((issue) => {
      const where = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : '';
      return { file: shown, ...locate((positions ??= parsed(text)), issue.path), message: `${where}${issue.message}` };
    });
    return { problems };
  }
  return { problems: [], source: sourceOf(file, text), data: result.data, ...(snapshot && { shipped: true as const }) };
}
