// Log lines begin with the local wall time, to the millisecond, whatever the mock clock says.
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The `HH:MM:SS.` of the last second a line was stamped in: a line a request, each a local-time conversion otherwise. */
let second = { at: Number.NaN, text: '' };

export function timed(line: string, at = new Date()): string {
  const ms = at.getTime();
  const start = ms - at.getMilliseconds();
  if (start !== second.at) second = { at: start, text: `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.` };
  return `${second.text}${pad(ms - start, 3)} ${line}`;
}
