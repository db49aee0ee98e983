// What a configuration may hold, so that no file can freeze or exhaust the mock: a file's size (read
// before parsing), YAML alias expansion (a billion laughs), a string's length, the number of
// fixtures. Passing one is a problem at file:line:col like any other.
import type { Document, LineCounter } from 'yaml';
import { yaml } from '../conversation/yaml.js';
import type { ConfigProblem } from './types.js';

export const CONFIG_LIMITS = {
  /** Bytes of one YAML file: a recorded conversation is a few KB, the largest real ones under 1 MB. */
  fileBytes: 4 * 1024 * 1024,
  /** Aliases resolved while a document is expanded (the yaml library's own guard). */
  aliases: 100,
  /** Characters of one string value, the bound of a template's output too. */
  stringChars: 100_000,
  /**
   * Characters of one string of a literal reply (`literal: true`, as recordings and pins write):
   * nothing is rendered from it, and the longest answer an upstream sends (128K output tokens,
   * about 500,000 characters) fits.
   */
  literalChars: 1_000_000,
  /** Entries over all files: chat, images and videos fixtures, and scenarios. */
  entries: 20_000,
} as const;

const SECTIONS = ['chat', 'images', 'videos', 'scenarios'] as const;

/** Whether a node lies inside a `reply` that says `literal: true`. */
function inLiteralReply(path: readonly unknown[]): boolean {
  const { isMap, isPair, isScalar } = yaml();
  return path.some((node) => isPair(node) && isScalar(node.key) && node.key.value === 'reply' && isMap(node.value) && node.value.get('literal') === true);
}

const UNSAFE_KEY = '__proto__';

/**
 * Whether a document's plain data may hold what `refuseUnsafeNodes` refuses: a key or a string that
 * names `__proto__` (a key made of a collection is written out as one string, so its inner keys
 * show in it) or a string past the bound. Visiting the document's nodes cost about a tenth of
 * yaml's parse; walking the data costs little besides making each text flat, which the compile
 * did before. So only a file this finds is visited, for its problems' positions. It finds more
 * than the visit refuses (a literal reply's long text, any text naming `__proto__`), never less.
 * An alias can make the data circular: each object is walked once.
 */
export function mayBeUnsafe(data: unknown, walked = new Set<object>()): boolean {
  if (typeof data === 'string') return data.length > CONFIG_LIMITS.stringChars || data.includes(UNSAFE_KEY);
  if (data === null || typeof data !== 'object' || walked.has(data)) return false;
  walked.add(data);
  if (Array.isArray(data)) return data.some((item) => mayBeUnsafe(item, walked));
  // `%YAML 1.1` brings `!!omap` and `!!set`, made Maps and Sets.
  if (data instanceof Map || data instanceof Set) return [...data].some((item) => mayBeUnsafe(item, walked));
  for (const key in data) {
    if (mayBeUnsafe(key, walked) || mayBeUnsafe((data as Record<string, unknown>)[key], walked)) return true;
  }
  return false;
}

/** `__proto__` keys (refused as in request bodies) and strings over the bound, each at its position. */
export function refuseUnsafeNodes(doc: Document, counter: LineCounter, file: string, problems: ConfigProblem[]): boolean {
  const before = problems.length;
  const at = (offset: number | undefined, message: string) => problems.push({ file, ...counter.linePos(offset ?? 0), message });
  const { isScalar, visit } = yaml();
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === UNSAFE_KEY) at(pair.key.range?.[0], '"__proto__" is not allowed as a key');
    },
    Scalar(_, scalar, path) {
      if (typeof scalar.value !== 'string' || scalar.value.length <= CONFIG_LIMITS.stringChars) return;
      const limit = inLiteralReply(path) ? CONFIG_LIMITS.literalChars : CONFIG_LIMITS.stringChars;
      if (scalar.value.length > limit) at(scalar.range?.[0], `a string of ${scalar.value.length} characters passes the limit of ${limit}`);
    },
  });
  return problems.length === before;
}

/**
 * Counts the entries of a file's sections (`data`, as checked), `counted` of them before it; a
 * problem at the first entry past the bound. Returns the new count.
 */
export function countEntries(data: unknown, file: string, at: (path: Array<string | number>) => { line: number; col: number }, counted: number, problems: ConfigProblem[]): number {
  let total = counted;
  if (data === null || typeof data !== 'object') return total;
  for (const section of SECTIONS) {
    const list = (data as Record<string, unknown>)[section];
    if (!Array.isArray(list)) continue;
    const room = CONFIG_LIMITS.entries - total;
    if (list.length > room && room >= 0) {
      problems.push({
        file,
        ...at([section, room]),
        message: `${section}[${room}]: the configuration passes the limit of ${CONFIG_LIMITS.entries} fixtures and scenarios over all files`,
      });
    }
    total += list.length;
  }
  return total;
}
