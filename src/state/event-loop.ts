// The process's one event loop, shared by everything it serves (SPEC 11, "Time"): every piece of
// work that gives the loop back does it here, in one vocabulary.
// - Slices, for long work (a batch file read, a batch's lines answered, a stream written, a
//   speech encoded): a few milliseconds each, another client's work between them.
// - A turn, for a request: the requests started in one turn take about TURN_MS together; one
//   request's own work is bounded where it is done (patterns, templates, tokens, journal pages),
//   but four clients asking at once for 40 ms of generated JSON each held the loop for 160 ms.
// - Bytes, for large bodies: parsing, answering and journaling a body costs about 15 ms a
//   megabyte, and 300 clients sending 300 KB at once held the loop for a second; the large bodies
//   started in one turn add up to at most TURN_BYTES.
// Who waits, waits in order; the usual request, in a turn with time left, pays one clock reading.
import type { Steps } from '../conversation/steps.js';
import { accepting } from './accepting.js';
import { isLarge } from './large-bodies.js';

/** How long one slice of long work may hold the event loop. */
const SLICE_MS = 5;
/** How long the requests started in one turn may take before the next ones wait. */
export const TURN_MS = 25;
/**
 * How long requests may wait while new connections keep coming (accepting.ts) before they go one
 * a turn: past it a turn takes in a connection and does a request's work, so the connections
 * still coming wait in the kernel's queue, where a stream's first pause does not count them. A
 * burst outlasts a first pause: a thousand streams opened over half a second in waves hold
 * 0.7-1 s of a core's work with their paced events, and with a quarter second the last waves'
 * connections were taken in at the pace of that work. A flood that never pauses still has its
 * requests go.
 */
const ACCEPTING_MS = 1000;
/** What the large bodies started in one turn may add up to: about 15 ms of work. */
const TURN_BYTES = 1024 * 1024;

/** Settles in a later turn, once other clients' work queued until now has had the loop. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs `callback` in a later turn, with the loop's I/O polled in between: a timer alone may fire
 * in the same timers phase as one armed there, and an immediate armed while I/O is handled runs
 * right after it; an immediate armed from a timer comes after the next poll.
 */
function afterNextPoll(callback: () => void): void {
  // Both keep the process alive: a request may be waiting for its turn with no socket open (the
  // drift command asks its mock in process); an unref'd immediate even let an idle loop block in
  // its poll for seconds. They last a millisecond or two.
  setTimeout(() => setImmediate(callback), 0);
}

/**
 * Settles once the loop has polled for I/O: work started where I/O is handled (a body parsed as
 * its last bytes came) and resumed by an immediate would run in the same turn of the loop.
 */
export const afterPoll = (): Promise<void> => new Promise((resolve) => afterNextPoll(resolve));

/**
 * Long work cut by time, not by count: lines differ a hundredfold in cost, and a slice must stay
 * short on a busy machine, where the operating system may stretch it several times over.
 */
export class Slice {
  private started = performance.now();

  /** Whether this slice has held the event loop long enough. */
  get over(): boolean {
    return performance.now() - this.started >= SLICE_MS;
  }

  /** Gives other clients the event loop, then starts the next slice. */
  async next(): Promise<void> {
    await nextTurn();
    this.started = performance.now();
  }
}

/** The result of `steps`, the event loop given back whenever a slice is over. */
export async function inSlices<T>(steps: Steps<T>): Promise<T> {
  const slice = new Slice();
  let step = steps.next();
  while (!step.done) {
    if (slice.over) await slice.next();
    step = steps.next();
  }
  return step.value;
}

// Requests' turns.
let requestTurnStarted: number | undefined;
const requestsWaiting: (() => void)[] = [];
/** When the waiting requests began to wait (the queue was last empty). */
let waitingSince: number | undefined;
/** Whether the requests wait while connections come in: a look in each turn's check phase. */
let holding = false;

function requestTurnEnded(): void {
  requestTurnStarted = undefined;
  if (!holding) releaseRequest();
}

/**
 * Right after each poll while connections come in: the waiting requests go once a turn of the
 * loop accepted none. Each turn then takes in a connection and reads a request, and the burst's
 * wait moves from the kernel's accept queue to here, after each request's reading, where a paced
 * stream's clock counts it (server/routes.ts). Once they have waited ACCEPTING_MS, one goes a
 * turn, as many as a turn accepts, so that the turns stay short and a flood that never pauses is
 * served at the pace it was before.
 */
function whileAccepting(): void {
  if (requestsWaiting.length > 0 && accepting()) {
    if (performance.now() - waitingSince! >= ACCEPTING_MS) requestsWaiting.shift()!();
    setImmediate(whileAccepting);
    return;
  }
  holding = false;
  if (requestsWaiting.length === 0) waitingSince = undefined;
  else releaseRequest();
}

function requestTurnHasTime(): boolean {
  const now = performance.now();
  if (requestTurnStarted === undefined) {
    requestTurnStarted = now;
    afterNextPoll(requestTurnEnded);
    return true;
  }
  return now - requestTurnStarted < TURN_MS;
}

/**
 * Lets one waiting request go: its work runs in the microtasks right after, so the time left is
 * read again before the next one goes, once they have all run: a tick queued from a microtask
 * runs when the microtask queue is empty. An immediate a request let only one go a turn of the
 * loop, and a burst of a thousand streams waited behind every due event of the streams before.
 */
function releaseRequest(): void {
  if (requestsWaiting.length === 0 || !requestTurnHasTime()) return;
  requestsWaiting.shift()!();
  if (requestsWaiting.length > 0) queueMicrotask(releaseAfterMicrotasks);
  else waitingSince = undefined;
}

const releaseAfterMicrotasks = (): void => process.nextTick(releaseRequest);

/**
 * Undefined when a request may start its work now, else a promise that settles when its turn
 * comes. While connections come in, requests wait: libuv accepts one a turn of the loop, and a
 * request's work in each turn would keep the rest in the kernel (state/accepting.ts).
 */
export function turnForRequest(): Promise<void> | undefined {
  if (accepting()) {
    if (!holding) {
      holding = true;
      setImmediate(whileAccepting);
    }
  } else if (requestsWaiting.length === 0 && requestTurnHasTime()) {
    return undefined;
  }
  waitingSince ??= performance.now();
  return new Promise((go) => requestsWaiting.push(go));
}

// Large bodies' turns.
let bytesThisTurn = 0;
let bytesTurnEnding = false;
const bodiesWaiting: { bytes: number; go: () => void }[] = [];

const fitsBytesTurn = (bytes: number): boolean => bytesThisTurn === 0 || bytesThisTurn + bytes <= TURN_BYTES;

function startBytes(bytes: number): void {
  bytesThisTurn += bytes;
  if (bytesTurnEnding) return;
  bytesTurnEnding = true;
  afterNextPoll(bytesTurnEnded);
}

function bytesTurnEnded(): void {
  bytesTurnEnding = false;
  bytesThisTurn = 0;
  while (bodiesWaiting.length > 0 && fitsBytesTurn(bodiesWaiting[0]!.bytes)) {
    const next = bodiesWaiting.shift()!;
    startBytes(next.bytes);
    next.go();
  }
}

/**
 * Undefined when work on a body of `bytes` may go on at once, else a promise that settles when its
 * turn comes. A body that comes alone, however large, never waits.
 */
export function turnForBytes(bytes: number): Promise<void> | undefined {
  if (!isLarge(bytes)) return undefined;
  if (bodiesWaiting.length === 0 && fitsBytesTurn(bytes)) {
    startBytes(bytes);
    return undefined;
  }
  return new Promise((go) => bodiesWaiting.push({ bytes, go }));
}
