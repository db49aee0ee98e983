// Whether a request's JSON text is already as JSON.stringify would write the value parsed from it,
// so the journal can keep the text the body reader holds: serialising a coding agent's 126 KB
// request again cost more than parsing it. The journal's readers rely on that form (verify answers
// `body` filters on the text, admin/verify/contains.ts): no space outside strings, each key once,
// one way to write each value. What this cannot tell cheaply is answered "no", and the value is
// serialised as before.

/**
 * The longest start of a text that is a run of tokens in JSON.stringify's form: strings with only
 * the escapes it writes, punctuation, literals, and numbers it writes back digit for digit (at most
 * 15 digits, no exponent, no trailing zero in a fraction, no -0, no fraction below 0.000001). With
 * no end anchor and one way to match each token, a text in another form stops the match where that
 * form starts, without backtracking through the text before it (which took 10 ms on 126 KB).
 */
const STRINGIFIED_START = /^(?:"(?:[^"\\]|\\["\\bfnrt]|\\u00(?:0[0-7bef]|1[0-9a-f]))*"|[{}[\]:,]|true|false|null|(?!-0[,}\]])-?(?=[0-9.]{1,16}[,}\]])(?:0|[1-9][0-9]*)(?:\.(?!000000)[0-9]*[1-9])?(?=[,}\]]))*/;

/** How many times `part` occurs in `text`. */
function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/** The keys of every object in `value`, walked without recursion. */
function keyCount(value: unknown): number {
  let keys = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object') continue;
    const children = Array.isArray(next) ? next : Object.values(next);
    if (!Array.isArray(next)) keys += children.length;
    for (const child of children) if (child !== null && typeof child === 'object') pending.push(child);
  }
  return keys;
}

/**
 * Whether `text`, which parsed to `value`, is what JSON.stringify(value) writes, up to the order of
 * keys (a parsed object puts integer-like keys first). A key repeated in the text is left out of
 * the value, so the keys are counted: in this form every `":` ends a key, unless a backslash comes
 * before it, and a text with one of those is answered "no".
 */
export function isStringified(text: string, value: unknown): boolean {
  if (text === '' || STRINGIFIED_START.exec(text)![0].length !== text.length || text.includes('\\":')) return false;
  return occurrences(text, '":') === keyCount(value);
}
