// A large JSON body parsed a span at a time, so the event loop can be given back between spans
// (SPEC 11, "Time"): one JSON.parse of 2 MB held it for 60-170 ms. Only the text's structure is
// followed here; every span of values (a group of an array's elements or an object's members, a
// piece of a long string) is parsed by JSON.parse itself, so what is accepted, and what it becomes,
// is JSON.parse's. Whatever this walk does not follow ends in `Unfollowed`, and the caller parses
// the whole text in one piece instead: a malformed body gets the same error, worded the same.
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE, stringEnd as endOfString } from '../conversation/json-text.js';
import type { Steps } from '../conversation/steps.js';

/** About the characters JSON.parse reads in a few hundred microseconds. */
const GROUP_CHARS = 32 * 1024;
/** bourne's words for a `__proto__` key, which it refuses (`protoAction: 'error'`). */
export const FORBIDDEN_KEY = 'Object contains forbidden prototype property';

/** The walk cannot go on: the whole text is parsed in one piece, for its value or its error. */
export class Unfollowed extends Error {}

/** The text nests deeper than the walk's `maxDepth`: the caller refuses it without parsing it whole. */
export class TooDeep extends Error {}

/** The characters a number, `true`, `false` or `null` may hold, and some they may not: JSON.parse judges. */
const SCALAR = /[-+.0-9a-zA-Z]*/y;

/** JSON's whitespace, and no other. */
export function skipSpace(text: string, at: number): number {
  for (;;) {
    const code = text.charCodeAt(at);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return at;
    at += 1;
  }
}

/** The index after the value at `at` if it ends within `budget` characters, else -1. */
function skipValue(text: string, at: number, budget: number): number {
  const code = text.charCodeAt(at);
  const stop = Math.min(text.length, at + budget);
  if (code === QUOTE) {
    const end = endOfString(text, at);
    return end <= stop ? end : -1;
  }
  if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
    let depth = 0;
    for (let i = at; i < stop; ) {
      const inner = text.charCodeAt(i);
      if (inner === QUOTE) {
        i = endOfString(text, i);
        if (i < 0) return -1;
        continue;
      }
      if (inner === OPEN_ARRAY || inner === OPEN_OBJECT) depth += 1;
      else if ((inner === CLOSE_ARRAY || inner === CLOSE_OBJECT) && --depth === 0) return i + 1;
      i += 1;
    }
    return -1;
  }
  SCALAR.lastIndex = at;
  SCALAR.exec(text);
  return SCALAR.lastIndex > at && SCALAR.lastIndex <= stop ? SCALAR.lastIndex : -1;
}

/** As `skipValue`, for an object's member: its key, the colon, its value. */
export function skipMember(text: string, at: number, budget: number): number {
  if (text.charCodeAt(at) !== QUOTE) return -1;
  const key = endOfString(text, at);
  if (key < 0) return -1;
  const colon = skipSpace(text, key);
  if (text.charCodeAt(colon) !== COLON) return -1;
  const value = skipSpace(text, colon + 1);
  return value - at < budget ? skipValue(text, value, budget - (value - at)) : -1;
}

type Skip = typeof skipValue;

/** The end of the values from `at` (by `skip`) that fit in one group, or -1 when not even the first does. */
function groupEnd(text: string, at: number, skip: Skip): number {
  let end = -1;
  for (let next = at; ; ) {
    const ended = skip(text, next, GROUP_CHARS - (next - at));
    if (ended < 0) return end;
    end = ended;
    const comma = skipSpace(text, ended);
    if (text.charCodeAt(comma) !== COMMA) return end;
    next = skipSpace(text, comma + 1);
    if (next - at >= GROUP_CHARS) return end;
  }
}

interface Walk {
  readonly text: string;
  at: number;
  readonly maxDepth: number;
  /** A `__proto__` key was met: refused once the whole text is known to be JSON, as bourne does. */
  forbidden: boolean;
}

/** JSON.parse of a span, anything it refuses or any `__proto__` key in it noted. */
function parseSpan(walk: Walk, open: string, from: number, to: number, close: string): unknown {
  const span = walk.text.slice(from, to);
  let value: unknown;
  try {
    value = JSON.parse(open + span + close);
  } catch {
    throw new Unfollowed();
  }
  // The key may be spelled with escapes (`\u005f`), as bourne knows.
  if ((span.includes('__proto__') || span.includes('\\u')) && hasForbiddenKey(value)) walk.forbidden = true;
  return value;
}

/** Whether some object in `value` has an own `__proto__` key (JSON.parse makes it one). */
function hasForbiddenKey(value: unknown): boolean {
  const queue: unknown[] = [value];
  while (queue.length > 0) {
    const node = queue.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Object.prototype.hasOwnProperty.call(node, '__proto__')) return true;
    for (const child of Object.values(node)) queue.push(child);
  }
  return false;
}

/**
 * Where a piece of a string's content may end: never inside an escape. `from` is where an escape
 * may begin, so the backslashes before `cut` are counted from there.
 */
function safeCut(text: string, from: number, cut: number): number {
  // An escape is at most six characters long.
  let slash = cut - 1;
  while (slash >= Math.max(from, cut - 6) && text.charCodeAt(slash) !== BACKSLASH) slash -= 1;
  if (slash < Math.max(from, cut - 6)) return cut;
  let run = slash;
  while (run > from && text.charCodeAt(run - 1) === BACKSLASH) run -= 1;
  // The second backslash of `\\` ends its escape before `cut`.
  if ((slash - run) % 2 === 1) return cut;
  const length = text.charCodeAt(slash + 1) === 0x75 ? 6 : 2;
  return slash + length > cut ? slash : cut;
}

/** A string at `walk.at`, a long one parsed a piece at a time. */
function* stringSteps(walk: Walk): Steps<string> {
  const { text } = walk;
  const end = endOfString(text, walk.at);
  if (end < 0) throw new Unfollowed();
  if (end - walk.at <= GROUP_CHARS) {
    const value = parseSpan(walk, '', walk.at, end, '') as string;
    walk.at = end;
    return value;
  }
  const pieces: string[] = [];
  const close = end - 1;
  // Without escapes (base64, most long texts) the value is the text's own characters: a slice of
  // it costs nothing, where joining 8 MB of pieces took 35 ms.
  let escaped = false;
  for (let from = walk.at + 1; from < close; ) {
    const cut = Math.min(close, from + GROUP_CHARS);
    const to = cut === close ? cut : safeCut(text, from, cut);
    const piece = parseSpan(walk, '"', from, to, '"') as string;
    escaped ||= piece.length !== to - from;
    pieces.push(piece);
    from = to;
    yield;
  }
  const value = escaped ? pieces.join('') : text.slice(walk.at + 1, close);
  walk.at = end;
  return value;
}

/** The value at `walk.at`; a container's values a group at a time, one too large for a group walked into. */
function* valueSteps(walk: Walk, depth: number): Steps<unknown> {
  const { text } = walk;
  const code = text.charCodeAt(walk.at);
  if (code === QUOTE) return yield* stringSteps(walk);
  if (code !== OPEN_ARRAY && code !== OPEN_OBJECT) {
    const end = skipValue(text, walk.at, Infinity);
    if (end < 0) throw new Unfollowed();
    const value = parseSpan(walk, '', walk.at, end, '');
    walk.at = end;
    return value;
  }
  // Deeper than a request may nest: parsing it whole would hold the loop a microsecond a level.
  if (depth >= walk.maxDepth) throw new TooDeep();
  const array = code === OPEN_ARRAY;
  const closing = array ? CLOSE_ARRAY : CLOSE_OBJECT;
  const values: unknown[] = [];
  const members: Record<string, unknown> = {};
  let at = skipSpace(text, walk.at + 1);
  if (text.charCodeAt(at) === closing) {
    walk.at = at + 1;
    return array ? values : members;
  }
  for (;;) {
    const end = groupEnd(text, at, array ? skipValue : skipMember);
    if (end >= 0 && array) {
      for (const value of parseSpan(walk, '[', at, end, ']') as unknown[]) values.push(value);
      at = end;
    } else if (end >= 0) {
      const group = parseSpan(walk, '{', at, end, '}');
      if (!walk.forbidden) Object.assign(members, group);
      at = end;
    } else {
      walk.at = at;
      if (!array) {
        if (text.charCodeAt(at) !== QUOTE) throw new Unfollowed();
        const key = yield* stringSteps(walk);
        const colon = skipSpace(text, walk.at);
        if (text.charCodeAt(colon) !== COLON) throw new Unfollowed();
        walk.at = skipSpace(text, colon + 1);
        const value = yield* valueSteps(walk, depth + 1);
        if (key === '__proto__') walk.forbidden = true;
        else members[key] = value;
      } else values.push(yield* valueSteps(walk, depth + 1));
      at = walk.at;
    }
    yield;
    at = skipSpace(text, at);
    const next = text.charCodeAt(at);
    if (next === closing) {
      walk.at = at + 1;
      return array ? values : members;
    }
    if (next !== COMMA) throw new Unfollowed();
    at = skipSpace(text, at + 1);
  }
}

/**
 * The value of JSON `text` (an object or an array), a span at a time. Throws `Unfollowed` where
 * the walk stops (the text is then parsed whole), or bourne's SyntaxError for a `__proto__` key.
 */
export function* jsonSteps(text: string, maxDepth: number): Steps<unknown> {
  const walk: Walk = { text, at: skipSpace(text, 0), maxDepth, forbidden: false };
  const value = yield* valueSteps(walk, 0);
  if (skipSpace(text, walk.at) !== text.length) throw new Unfollowed();
  if (walk.forbidden) throw new SyntaxError(FORBIDDEN_KEY);
  return value;
}
