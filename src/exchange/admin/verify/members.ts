// The members of a request body a `body` filter names, read from the body's JSON text without
// parsing the rest. A verify over a long journal reads thousands of bodies; the members asked
// about (`temperature`, `tools`) are a small part of one, its `messages` most of it, and parsing
// only them costs a fraction of JSON.parse on the whole. The journal keeps bodies as
// JSON.stringify wrote them: no space outside strings, each key once.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** The index just past the string whose opening quote is at `at`. */
function stringEnd(text: string, at: number): number {
  let quote = text.indexOf('"', at + 1);
  for (;;) {
    if (quote === -1) throw new SyntaxError('unterminated string');
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
}

/** The index just past the value that starts at `at`. */
function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at);
  let index = at;
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    // A number, true, false or null: it ends where its container goes on.
    for (; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code === COMMA || code === CLOSE_OBJECT || code === CLOSE_ARRAY) break;
    }
    return index;
  }
  let depth = 0;
  do {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = stringEnd(text, index);
      continue;
    }
    if (code === OPEN_OBJECT || code === OPEN_ARRAY) depth++;
    else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) depth--;
    index++;
  } while (depth > 0 && index < text.length);
  if (depth > 0) throw new SyntaxError('unterminated value');
  return index;
}

/**
 * The body's members named by `keys` (those it has), parsed; the body itself when it is not an
 * object. What `contains` finds in it is what it finds in the whole body: it reads only those keys.
 */
export function membersOf(json: string, keys: ReadonlySet<string>): unknown {
  if (json.charCodeAt(0) !== OPEN_OBJECT) return JSON.parse(json);
  // No prototype: a member named `__proto__` is a member, as JSON.parse makes it.
  const members = Object.create(null) as Record<string, unknown>;
  let index = 1;
  while (json.charCodeAt(index) === QUOTE) {
    const keyEnd = stringEnd(json, index);
    const raw = json.slice(index + 1, keyEnd - 1);
    const key = raw.includes('\\') ? (JSON.parse(json.slice(index, keyEnd)) as string) : raw;
    const end = valueEnd(json, keyEnd + 1);
    if (keys.has(key)) members[key] = JSON.parse(json.slice(keyEnd + 1, end));
    index = json.charCodeAt(end) === COMMA ? end + 1 : end;
  }
  if (json.charCodeAt(index) !== CLOSE_OBJECT) throw new SyntaxError('not an object as JSON.stringify writes one');
  return members;
}
