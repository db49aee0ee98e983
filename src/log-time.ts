// Log lines begin with the local wall time, to the millisecond, whatever the mock clock says.
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function timed(line: string, at = new Date()): string {
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)} ${line}`;
}
