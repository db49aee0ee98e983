// What the writer actually sent, kept for the journal: references to the bodies and events the
// plan already holds (nothing is serialised again), bounded so one entry stays under 1 MB.
import type { StreamEvent } from '../conversation/plan.js';
import type { SentEvent, SentResponse } from '../state/journal.js';

/** An entry's answer is cut past this many characters of body or stream frames. */
export const SENT_MAX = 1024 * 1024;

/** A whole answer: `text` is what went on the wire, so its size is known without work. */
export function sentWhole(status: number, headers: Record<string, unknown>, body: unknown, text: string, type: string): SentResponse {
  if (text.length <= SENT_MAX) return { status, headers, body };
  return { status, headers, body: { type, size: text.length }, truncated: true };
}

export function sentBinary(status: number, headers: Record<string, unknown>, type: string, size: number): SentResponse {
  return { status, headers, body: { type, size } };
}

/** A chunk sent from its serialized form: its data object is built when the journal is read. */
class SentChunk implements SentEvent {
  constructor(private readonly source: StreamEvent) {}

  get event(): string | null {
    return this.source.event ?? null;
  }

  get data(): unknown {
    return this.source.data;
  }

  toJSON(): { event: string | null; data: unknown } {
    return { event: this.event, data: this.data };
  }
}

/**
 * A stream's events as they are framed; only those flushed to the socket count as sent, so a
 * client that leaves mid-stream is journaled with what it actually got.
 */
export class SentStream {
  private readonly events: SentEvent[] = [];
  private chars = 0;
  private flushed = 0;
  readonly response: SentResponse & { events: SentEvent[] };

  constructor(status: number, headers: Record<string, unknown>) {
    this.response = { status, headers, events: this.events };
  }

  framed(event: StreamEvent | SentEvent, frameLength: number): void {
    this.chars += frameLength;
    if (this.chars > SENT_MAX) {
      this.response.truncated = true;
      return;
    }
    this.events.push('json' in event && event.json !== undefined ? new SentChunk(event) : { event: event.event ?? null, data: event.data });
  }

  /** Everything framed so far went on the socket. */
  commit(): void {
    this.flushed = this.events.length;
  }

  /** Drops events framed after the last flush: they never reached the socket. */
  settle(): void {
    this.events.length = this.flushed;
  }
}
