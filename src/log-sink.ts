// The default log on stdout, a batch at a time: one synchronous write per request line cost a
// system call each under load. Lines wait at most one turn of the event loop, stay in order,
// and whatever is pending when the process exits is written then.
let pending: string[] = [];
let scheduled = false;
let flushOnExit = false;

function flush(): void {
  scheduled = false;
  if (pending.length === 0) return;
  const text = `${pending.join('\n')}\n`;
  pending = [];
  process.stdout.write(text);
}

/** Every line the server process prints on stdout goes through here, so they keep their order. */
export function printLine(line: string): void {
  pending.push(line);
  if (!flushOnExit) {
    flushOnExit = true;
    process.on('exit', flush);
  }
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}
