// One SSE frame, whatever its field values hold: a line break inside a value would end the field
// early and let the rest read as other fields or another event, so data is split into `data:`
// lines (which the client joins with "\n") and a name is kept to one line.
const LINE_BREAK = /[\r\n]/;
const LINE_BREAKS = /\r\n|\r|\n/;

export function sseFrame(name: string | undefined, data: string): string {
  const lines = LINE_BREAK.test(data) ? data.split(LINE_BREAKS).map((line) => `data: ${line}\n`).join('') : `data: ${data}\n`;
  if (name === undefined) return `${lines}\n`;
  return `event: ${LINE_BREAK.test(name) ? name.replace(/[\r\n]+/g, ' ') : name}\n${lines}\n`;
}
