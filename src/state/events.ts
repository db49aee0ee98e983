// What happens inside the mock, as events for live watchers (the inspector page): a journal
// entry (and, before it, the request's start and its stream's progress), a reload attempt, a
// scenario switch, a video task's status. Transport-free: the SSE
// route iterates a subscription; the hub only queues, and a watcher that falls behind is dropped
// rather than letting its backlog grow without end.

export type MockEventName = 'start' | 'progress' | 'request' | 'reload' | 'scenario' | 'task' | 'drift';

export interface MockEvent {
  name: MockEventName;
  /** The data as JSON, serialised once however many watchers there are. */
  json: string;
}

/**
 * What a watcher may have waiting, in characters of event data (JSON text, about a byte each);
 * past it the watcher is dropped (it can reconnect and reload). Bounded in size, not in count:
 * a journal entry can be a megabyte.
 */
export const BACKLOG_MAX_CHARS = 8 * 1024 * 1024;

export class Subscription implements AsyncIterable<MockEvent> {
  private queue: MockEvent[] = [];
  private queuedChars = 0;
  private wake: (() => void) | undefined;
  private closed = false;
  private markEnded!: () => void;
  /** Settles when the subscription closes, however it closes. */
  readonly ended = new Promise<void>((resolve) => (this.markEnded = resolve));
  /** True once dropped for falling behind. */
  overflowed = false;

  constructor(
    private readonly leave: (subscription: Subscription) => void,
    private readonly maxChars: number,
  ) {}

  offer(event: MockEvent): void {
    if (this.closed) return;
    if (this.queuedChars + event.json.length > this.maxChars) {
      this.overflowed = true;
      this.close();
      return;
    }
    this.queuedChars += event.json.length;
    this.queue.push(event);
    this.wake?.();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.queuedChars = 0;
    this.leave(this);
    this.markEnded();
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<MockEvent> {
    while (!this.closed) {
      const next = this.queue.shift();
      if (next) {
        this.queuedChars -= next.json.length;
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

  subscribe(maxChars = BACKLOG_MAX_CHARS): Subscription {
    const subscription = new Subscription((gone) => this.subscriptions.delete(gone), maxChars);
    this.subscriptions.add(subscription);
    return subscription;
  }

  get watchers(): number {
    return this.subscriptions.size;
  }

  /** Costs nothing when nobody watches: the journal calls it on every request. */
  publish(name: MockEventName, data: unknown): void {
    if (this.subscriptions.size === 0) return;
    this.publishJson(name, JSON.stringify(data));
  }

  /** As `publish`, with the event's data spelled already. */
  publishJson(name: MockEventName, json: string): void {
    const event = { name, json };
    for (const subscription of this.subscriptions) subscription.offer(event);
  }
}
