// Requests with large bodies share the event loop and the memory (SPEC 11, "Time" and "Memory").
// Parsing, answering and journaling a body costs about 15 ms and several copies a megabyte:
// 300 clients sending 300 KB at once finished their bodies in the same turn of the loop (and
// their forwarded answers came back together), held it for a second and took 550 MB. So the large
// bodies whose work starts in one turn add up to at most TURN_BYTES, a mock works on at most
// IN_FLIGHT_BYTES of them at once, and the rest wait, in order, still in their sockets. A body
// that comes alone, however large, never waits; none is ever refused for waiting.

import { afterNextPoll } from './work-turns.js';

/** Bodies this small are never held: the usual request pays nothing. */
export const LARGE_BODY = 64 * 1024;
/** What the large bodies started in one turn of the loop may add up to: about 15 ms of work. */
const TURN_BYTES = 1024 * 1024;
/** What the large bodies one mock works on at once may add up to (a larger one works alone). */
export const IN_FLIGHT_BYTES = 16 * 1024 * 1024;

interface Waiting {
  bytes: number;
  go: () => void;
}

// Written so that no figure (NaN, a negative difference) is ever held.
const isLarge = (bytes: number): boolean => bytes >= LARGE_BODY;

// One event loop per process: the turns are the process's.
let startedThisTurn = 0;
let turnEnding = false;
const waitingForTurn: Waiting[] = [];

const fitsTurn = (bytes: number): boolean => startedThisTurn === 0 || startedThisTurn + bytes <= TURN_BYTES;

function startInTurn(bytes: number): void {
  startedThisTurn += bytes;
  if (turnEnding) return;
  turnEnding = true;
  afterNextPoll(nextTurn);
}

function nextTurn(): void {
  turnEnding = false;
  startedThisTurn = 0;
  while (waitingForTurn.length > 0 && fitsTurn(waitingForTurn[0]!.bytes)) {
    const next = waitingForTurn.shift()!;
    startInTurn(next.bytes);
    next.go();
  }
}

/** Undefined when work on a body of `bytes` may go on at once, else a promise that settles when its turn comes. */
export function turnFor(bytes: number): Promise<void> | undefined {
  if (!isLarge(bytes)) return undefined;
  if (waitingForTurn.length === 0 && fitsTurn(bytes)) {
    startInTurn(bytes);
    return undefined;
  }
  return new Promise((go) => waitingForTurn.push({ bytes, go }));
}

/** The large bodies one mock works on: `admit` before reading one, `release` the same figure once its request ended. */
export class BodiesInFlight {
  private held = 0;
  private readonly waiting: Waiting[] = [];

  private fits(bytes: number): boolean {
    return this.held === 0 || this.held + bytes <= IN_FLIGHT_BYTES;
  }

  /** Undefined when a body of `bytes` may be read at once, else a promise that settles when it may. */
  admit(bytes: number): Promise<void> | undefined {
    if (!isLarge(bytes)) return undefined;
    if (this.waiting.length === 0 && this.fits(bytes)) {
      this.held += bytes;
      return undefined;
    }
    return new Promise((go) => this.waiting.push({ bytes, go }));
  }

  release(bytes: number): void {
    if (!isLarge(bytes)) return;
    this.held -= bytes;
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.bytes)) {
      const next = this.waiting.shift()!;
      this.held += next.bytes;
      next.go();
    }
  }
}
