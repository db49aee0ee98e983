// What the writer actually sent, kept for the journal as the JSON text of its `response` (a
// SentResponse): from the texts the writer made anyway (a whole answer's JSON, each event's
// data), nothing serialised twice, bounded so one entry stays under 1 MB.
import { JOURNAL_ANSWER_MAX as SENT_MAX, type StreamEvent } from '../conversation/plan.js';

function head(status: number, headers: Record<string, unknown>): string {
  return `{"status":${status},"headers":${JSON.stringify(headers)}`;
}

/**
 * A whole answer: `text` is what went on the wire, so its size is known without work, and
 * `bodyJson` the JSON of what the journal shows of it (the answer's object, or the text itself
 * when it is not JSON).
 */
export function sentWhole(status: number, headers: Record<string, unknown>, bodyJson: string, text: string, type: string): string {
  if (text.length <= SENT_MAX) return `${head(status, headers)},"body":${bodyJson}}`;
  return `${head(status, headers)},"body":${JSON.stringify({ type, size: text.length })},"truncated":true}`;
}

export function sentBinary(status: number, headers: Record<string, unknown>, type: string, size: number, about?: Record<string, unknown>): string {
  return `${head(status, headers)},"body":${JSON.stringify({ type, size, ...about })}}`;
}

/** Whether the event's data goes out as JSON text (a chunk serialised around its piece, or an object). */
export function isJson(event: StreamEvent): boolean {
  return event.json !== undefined || (typeof event.data === 'object' && event.data !== null);
}

/**
 * A stream's events as they are framed; only those flushed to the socket count as sent, so a
 * client that leaves mid-stream is journaled with what it actually got.
 */
export class SentStream {
  /** Each event as `{"event":...,"data":...}`. */
  private readonly events: string[] = [];
  private chars = 0;
  private flushed = 0;
  private truncated = false;

  constructor(
    private readonly status: number,
    private readonly headers: Record<string, unknown>,
  ) {}

  /** `data`: the event's data as framed (its JSON, or the string as it is). */
  framed(event: StreamEvent, data: string, frameLength: number): void {
    this.chars += frameLength;
    if (this.chars > SENT_MAX) {
      this.truncated = true;
      return;
    }
    const name = event.event ?? null;
    // A chunk serialized around its piece is JSON: its data object is not built to ask.
    this.events.push(isJson(event) ? `{"event":${JSON.stringify(name)},"data":${data}}` : JSON.stringify({ event: name, data: event.data }));
  }

  /** Everything framed so far went on the socket. */
  commit(): void {
    this.flushed = this.events.length;
  }

  /** Drops events framed after the last flush: they never reached the socket. */
  settle(): void {
    this.events.length = this.flushed;
  }

  get json(): string {
    return `${head(this.status, this.headers)},"events":[${this.events.join(',')}]${this.truncated ? ',"truncated":true' : ''}}`;
  }
}
