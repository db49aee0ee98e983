// Long work (a batch file read, a batch's lines answered, its output written) done in slices of
// a few milliseconds, giving other clients the event loop between them. Slices are cut by time,
// not by count: lines differ a hundredfold in cost, and a slice must stay short on a busy machine,
// where the operating system may stretch it several times over.

/** How long one slice may hold the event loop. */
const SLICE_MS = 5;

/** Lets other clients' work run before the next slice. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

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
