// Reading a JSON text's structure without parsing it: its punctuation, and where a string ends.
// The scans that find a member in a kept body (verify) and the spans of a large body (its sliced
// parse) read text this way.

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;

/** The index just past the string whose opening quote is at `at`, or -1 when it does not close. */
export function stringEnd(json: string, at: number): number {
  for (let from = at + 1; ; ) {
    const quote = json.indexOf('"', from);
    if (quote === -1) return -1;
    let backslashes = 0;
    while (json.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Deeper than any request an SDK sends (a tool's JSON schema nests a few dozen levels at most). */
export const MAX_BODY_DEPTH = 128;

/**
 * Past this many characters a JSON text's nesting is looked at before JSON.parse reads it. V8
 * parses a level of nesting in 0.5-2 µs (100,000 levels in 200 KB: 45-97 ms on a quiet machine),
 * a character of an ordinary text in about a nanosecond: below this size no text holds the loop
 * for 100 ms, above it the look costs a fraction of the parse.
 */
export const DEPTH_LOOKED_CHARS = 192 * 1024;

/** Whether JSON `text` opens more than `most` arrays or objects inside one another; its strings are skipped. */
export function nestsDeeperThan(json: string, most: number): boolean {
  let depth = 0;
  for (let at = 0; at < json.length; at++) {
    const code = json.charCodeAt(at);
    if (code === QUOTE) {
      const end = stringEnd(json, at);
      // A string that never closes: the parse refuses the text, worded as JSON.parse words it.
      if (end < 0) return false;
      at = end - 1;
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > most) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** Whether a client's JSON text is too deep to be given to JSON.parse: a large one nested past MAX_BODY_DEPTH. */
export function tooDeepToParse(json: string): boolean {
  return json.length >= DEPTH_LOOKED_CHARS && nestsDeeperThan(json, MAX_BODY_DEPTH);
}

/**
 * JSON.parse of a client's text (a socket's event, a batch line, tool arguments sent back),
 * refusing one nested too deep with a SyntaxError before it is parsed.
 */
export function parseClientJson(json: string): unknown {
  if (tooDeepToParse(json)) throw new SyntaxError(`the JSON nests deeper than ${MAX_BODY_DEPTH} levels`);
  return JSON.parse(json) as unknown;
}
