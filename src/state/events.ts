// What happens inside the mock, as events for live watchers (the inspector page): a journal
// entry, a reload attempt, a scenario switch, a video task's status. Transport-free: the SSE
// route iterates a subscription; the hub only queues, and a watcher that falls behind is dropped
// rather than letting its backlog grow without end.

export type MockEventName = 'request' | 'reload' | 'scenario' | 'task' | 'drift';

export interface MockEvent {
  name: MockEventName;
  /** The data as JSON, serialised once however many watchers there are. */
  json: string;
}

/** Events a watcher may have waiting; one more and it is dropped (it can reconnect and reload). */
export const BACKLOG_MAX = 1000;

export class Subscription implements AsyncIterable<MockEvent> {
  private queue: MockEvent[] = [];
  private wake: (() => void) | undefined;
  private closed = false;
  private markEnded!: () => void;
  /** Settles when the subscription closes, however it closes. */
  readonly ended = new Promise<void>((resolve) => (this.markEnded = resolve));
  /** True once dropped for falling behind. */
  overflowed = false;

  constructor(
    private readonly leave: (subscription: Subscription) => void,
    private readonly max: number,
  ) {}

  offer(event: MockEvent): void {
    if (this.closed) return;
    if (this.queue.length >= this.max) {
      this.overflowed = true;
      this.close();
      return;
    }
    this.queue.push(event);
    this.wake?.();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.leave(this);
    this.markEnded();
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<MockEvent> {
    while (!this.closed) {
      const next = this.queue.shift();
      if (next) {
        yield next;
        continue;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

export class EventHub {
  private readonly subscriptions = new Set<Subscription>();

  subscribe(max = BACKLOG_MAX): Subscription {
    const subscription = new Subscription((gone) => this.subscriptions.delete(gone), max);
    this.subscriptions.add(subscription);
    return subscription;
  }

  get watchers(): number {
    return this.subscriptions.size;
  }

  /** Costs nothing when nobody watches: the journal calls it on every request. */
  publish(name: MockEventName, data: unknown): void {
    if (this.subscriptions.size === 0) return;
    const event = { name, json: JSON.stringify(data) };
    for (const subscription of this.subscriptions) subscription.offer(event);
  }
}
