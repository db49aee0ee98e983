// What the writer actually sent, kept for the journal as the JSON text of its `response` (a
// SentResponse): from the texts the writer made anyway (a whole answer's JSON, each event's
// data), nothing serialised twice, bounded so one entry stays under 1 MB.
import { JOURNAL_ANSWER_MAX as SENT_MAX } from '../conversation/plan.js';

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

/**
 * A stream's events as they are framed; only those flushed to the socket count as sent, so a
 * client that leaves mid-stream is journaled with what it actually got. Each event is kept as the
 * texts the writer framed, and its journal JSON is put together once, at the end.
 */
export class SentStream {
  /** Two entries an event: its name (null without one), then the JSON of its data. */
  private readonly parts: (string | null)[] = [];
  private chars = 0;
  private flushed = 0;
  private truncated = false;

  constructor(
    private readonly status: number,
    private readonly headers: Record<string, unknown>,
  ) {}

  /** `data`: the event's data as framed; `json`: whether that is JSON text (else a string as it is). */
  framed(name: string | undefined, data: string, json: boolean, frameLength: number): void {
    this.chars += frameLength;
    if (this.chars > SENT_MAX) {
      this.truncated = true;
      return;
    }
    this.parts.push(name ?? null, json ? data : JSON.stringify(data));
  }

  /** Everything framed so far went on the socket. */
  commit(): void {
    this.flushed = this.parts.length;
  }

  /** Drops events framed after the last flush: they never reached the socket. */
  settle(): void {
    this.parts.length = this.flushed;
  }

  get json(): string {
    const texts: string[] = [];
    for (let at = 0; at < this.parts.length; at += 2) {
      const name = this.parts[at];
      texts.push(`{"event":${name === null ? 'null' : JSON.stringify(name)},"data":${this.parts[at + 1]}}`);
    }
    return `${head(this.status, this.headers)},"events":[${texts.join(',')}]${this.truncated ? ',"truncated":true' : ''}}`;
  }
}
