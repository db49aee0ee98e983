// Client-supplied text (a model name, a path, a header) shown in a log line: control characters
// and line separators are escaped (`\n`, `\u001b`), so no request can color the developer's
// terminal, move its cursor, or forge a log line of its own with a line break.
const CONTROL = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/g;
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function printable(text: string): string {
  return text.replace(CONTROL, (char) => SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
