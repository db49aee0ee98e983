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
