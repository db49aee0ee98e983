// The default log on stdout, a batch at a time: one synchronous write per request line cost a
// system call each under load, and one per turn of the event loop still one per request or two.
// Lines wait at most FLUSH_MS (or until 64 KB wait), stay in order, and whatever is pending when
// the process exits is written then.
const FLUSH_MS = 20;
const FLUSH_CHARS = 64 * 1024;
let pending: string[] = [];
let pendingChars = 0;
let timer: NodeJS.Timeout | undefined;
let flushOnExit = false;

/** Writes what waits now: the start lines, which whoever started the mock waits for. */
export function flushLines(): void {
  clearTimeout(timer);
  timer = undefined;
  if (pending.length === 0) return;
  const text = `${pending.join('\n')}\n`;
  pending = [];
  pendingChars = 0;
  process.stdout.write(text);
}

/** Every line the server process prints on stdout goes through here, so they keep their order. */
export function printLine(line: string): void {
  pending.push(line);
  pendingChars += line.length;
  if (!flushOnExit) {
    flushOnExit = true;
    process.on('exit', flushLines);
  }
  if (pendingChars >= FLUSH_CHARS) flushLines();
  // Unref'd: a pending line never keeps the process alive; exit writes it.
  else timer ??= setTimeout(flushLines, FLUSH_MS).unref();
}
