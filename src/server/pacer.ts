// A stream's clock: when each paced event may go, against fixed deadlines from the stream's start.
import type { ServerResponse } from 'node:http';

/**
 * Paces one stream against fixed deadlines from its start, so delays do not add up as the stream
 * goes, with one close listener and at most one timer for the stream's whole life.
 */
export class Pacer {
  private readonly startedMs = performance.now();
  private timer: NodeJS.Timeout | undefined;
  private wake: ((open: boolean) => void) | undefined;
  private closed = false;
  /** Set when the mock shuts down: no more waiting, the stream ends in its error event. */
  interrupted = false;

  constructor(private readonly res: ServerResponse) {
    res.once('close', this.onClose);
  }

  private readonly onClose = (): void => {
    this.closed = true;
    clearTimeout(this.timer);
    this.wake?.(false);
  };

  readonly interrupt = (): void => {
    this.interrupted = true;
    clearTimeout(this.timer);
    this.wake?.(true);
  };

  /** Resolves `atMs` after the stream began (at once if that is past, or interrupted); false when the client left. */
  until(atMs: number): Promise<boolean> {
    if (this.closed || this.res.destroyed) return Promise.resolve(false);
    if (this.interrupted) return Promise.resolve(true);
    const wait = this.startedMs + atMs - performance.now();
    if (wait <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(() => {
        this.wake = undefined;
        resolve(true);
      }, wait);
    });
  }

  stop(): void {
    clearTimeout(this.timer);
    this.res.off('close', this.onClose);
  }
}
