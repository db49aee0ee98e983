// Log lines begin with the local wall time, to the millisecond, whatever the mock clock says.
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The `HH:MM:SS.` of the last second a line was stamped in: a line a request, each a local-time conversion otherwise. */
let second = { at: Number.NaN, text: '' };

/** `ms`: the wall time, whose local second is read from a Date made only when the second changes (a zone's offset is whole seconds). */
export function timed(line: string, ms = Date.now()): string {
  const start = ms - (ms % 1000);
  if (start !== second.at) {
    const at = new Date(ms);
    second = { at: start, text: `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.` };
  }
  return `${second.text}${pad(ms - start, 3)} ${line}`;
}
