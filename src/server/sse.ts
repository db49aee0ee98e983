// One SSE frame, whatever its field values hold: a line break inside a value would end the field
// early and let the rest read as other fields or another event, so data is split into `data:`
// lines (which the client joins with "\n") and a name is kept to one line.
const LINE_BREAK = /[\r\n]/;
const LINE_BREAKS = /\r\n|\r|\n/;

/** Event names seen, each checked once: a stream names the same few on every event. */
const NAMES = new Map<string, string>();
const NAMES_MAX = 256;

function safeName(name: string): string {
  let safe = NAMES.get(name);
  if (safe === undefined) {
    safe = LINE_BREAK.test(name) ? name.replace(/[\r\n]+/g, ' ') : name;
    if (NAMES.size < NAMES_MAX) NAMES.set(name, safe);
  }
  return safe;
}

/** `json`: the data is JSON text, which never holds a raw line break (JSON escapes them), so it is not searched for one. */
export function sseFrame(name: string | undefined, data: string, json = false): string {
  const lines = !json && LINE_BREAK.test(data) ? data.split(LINE_BREAKS).map((line) => `data: ${line}\n`).join('') : `data: ${data}\n`;
  if (name === undefined) return `${lines}\n`;
  return `event: ${safeName(name)}\n${lines}\n`;
}
