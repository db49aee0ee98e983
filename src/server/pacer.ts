// A stream's clock: when each paced event may go, against fixed deadlines from the stream's start.
import type { ServerResponse } from 'node:http';
import { forget, wakeAt, type Sleeper } from './pacing-clock.js';

/**
 * Paces one stream against fixed deadlines from its start, so delays do not add up as the stream
 * goes, with one close listener for the stream's whole life and its waits on the shared clock.
 */
export class Pacer implements Sleeper {
  private wake: ((open: boolean) => void) | undefined;
  private sleepsUntil = 0;
  private closed = false;
  /** Set when the mock shuts down: no more waiting, the stream ends in its error event. */
  interrupted = false;

  /** Whether the first paced event's deadline has been asked for. */
  private begun = false;

  /**
   * `startedMs`: when the stream's clock started, by default now. The writer starts it when the
   * request was read, so the mock's own work on it is part of its first pause, as a model's is
   * part of its time to first token, not added to the pause.
   */
  constructor(
    private readonly res: ServerResponse,
    private startedMs = performance.now(),
  ) {
    // `on`, not `once`: a response closes once, and `stop` takes the listener off either way;
    // `once` wrapped it in two more objects a stream.
    res.on('close', this.onClose);
  }

  private readonly onClose = (): void => {
    this.closed = true;
    this.settle(false);
  };

  readonly interrupt = (): void => {
    this.interrupted = true;
    this.settle(true);
  };

  due(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.(true);
  }

  private settle(open: boolean): void {
    const wake = this.wake;
    if (!wake) return;
    this.wake = undefined;
    forget(this.sleepsUntil, this);
    wake(open);
  }

  /**
   * Whether `atMs` after the stream began has passed: an event due then need not wait. The first
   * asked for is the first paced event's: when the mock's own work took longer than that pause,
   * the clock starts so that the event is due now, and the events after it keep their gaps.
   */
  isPast(atMs: number): boolean {
    const now = performance.now();
    if (!this.begun) this.startedMs = Math.max(this.startedMs, now - atMs);
    this.begun = true;
    return this.startedMs + atMs <= now;
  }

  /**
   * Calls `then(true)` `atMs` after the stream began (at once if that is past, or interrupted),
   * `then(false)` when the client left. A callback, not a promise: a paced stream's event waits
   * on the clock alone, with no promise and no microtask an event.
   */
  after(atMs: number, then: (open: boolean) => void): void {
    if (this.closed || this.res.destroyed) return then(false);
    if (this.interrupted) return then(true);
    const at = this.startedMs + atMs;
    if (at <= performance.now()) return then(true);
    this.wake = then;
    this.sleepsUntil = at;
    wakeAt(at, this);
  }

  stop(): void {
    this.settle(false);
    this.res.off('close', this.onClose);
  }
}
