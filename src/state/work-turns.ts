// Requests take turns of the event loop (SPEC 11, "Time"). One request's work is bounded where it
// is done (patterns, templates, token counting, journal pages); this bounds several that arrive
// together: four clients asking at once for 40 ms of generated JSON each were read in the same
// turn and held the loop for 160 ms. So once the requests started in a turn have taken TURN_MS,
// the next ones wait for a later turn, in order; the usual request, in a turn with time left,
// pays one clock reading.

/** How long the requests started in one turn may take before the next ones wait. */
export const TURN_MS = 25;

let turnStarted: number | undefined;
const waiting: (() => void)[] = [];

/**
 * Runs `callback` in a later turn, with the loop's I/O polled in between: a timer alone may fire
 * in the same timers phase as one armed there, and an immediate armed while I/O is handled runs
 * right after it; an immediate armed from a timer comes after the next poll.
 */
export function afterNextPoll(callback: () => void): void {
  // Both keep the process alive: a request may be waiting for this turn with no socket open (the
  // drift command asks its mock in process); an unref'd immediate even let an idle loop block in
  // its poll for seconds. They last a millisecond or two.
  setTimeout(() => setImmediate(callback), 0);
}

function nextTurn(): void {
  turnStarted = undefined;
  release();
}

function hasTime(): boolean {
  const now = performance.now();
  if (turnStarted === undefined) {
    turnStarted = now;
    afterNextPoll(nextTurn);
    return true;
  }
  return now - turnStarted < TURN_MS;
}

/**
 * Lets one waiting request go: its work runs in the microtasks right after, so the time left is
 * read again, in an immediate, before the next one goes.
 */
function release(): void {
  if (waiting.length === 0 || !hasTime()) return;
  waiting.shift()!();
  if (waiting.length > 0) setImmediate(release);
}

/** Undefined when a request may start its work now, else a promise that settles when its turn comes. */
export function turnForWork(): Promise<void> | undefined {
  if (waiting.length === 0 && hasTime()) return undefined;
  return new Promise((go) => waiting.push(go));
}
