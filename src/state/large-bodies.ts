// Requests with large bodies share the memory (SPEC 11, "Memory"): parsing, answering and
// journaling a body takes several copies of it, and 300 clients sending 300 KB at once took
// 550 MB. So a mock works on at most IN_FLIGHT_BYTES of large bodies at once, and the rest wait, in
// order, still in their sockets; their turns of the event loop are `turnForBytes`'s
// (state/event-loop.ts). A body that comes alone, however large, never waits; none is ever refused
// for waiting.

/** Bodies this small are never held: the usual request pays nothing. */
export const LARGE_BODY = 64 * 1024;
/** What the large bodies one mock works on at once may add up to (a larger one works alone). */
export const IN_FLIGHT_BYTES = 16 * 1024 * 1024;

interface Waiting {
  bytes: number;
  go: () => void;
}

/** Written so that no figure (NaN, a negative difference) is ever held. */
export const isLarge = (bytes: number): boolean => bytes >= LARGE_BODY;

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
