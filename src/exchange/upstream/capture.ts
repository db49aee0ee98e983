// An upstream's answer as it passes through: every chunk goes on to the client the moment it
// arrives, and only as much is kept as the journal and a recording need (`keepMax` characters:
// the journal's entry bound, or the recording bound with --record). Past that the answer still
// flows to the client whole; what was kept says it was cut, and it is not recorded.
import { createParser } from 'eventsource-parser';
import type { RelayedAnswer } from '../../conversation/plan.js';
import { EventStreamReader } from '../../styles/bedrock/event-stream.js';

/** What stands for UPSTREAM_API_KEY wherever an answer repeats it. */
export const REDACTED = '[redacted]';

/** A stream event as it came: its data still as text, parsed only when asked for. */
interface KeptEvent {
  event: string | null;
  data: string;
  /** ms after the request was forwarded. */
  atMs: number;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export class Capture {
  private chunks: Buffer[] = [];
  private readonly events: KeptEvent[] = [];
  private readonly parser;
  /** Bytes that came, kept or not. */
  size = 0;
  /** Whether everything that came is kept (false once more than `keepMax` bytes came). */
  whole = true;
  /** Whether the answer arrived whole (not cut by the client or the upstream). */
  complete = false;

  private readonly sse: boolean;
  private readonly json: boolean;
  /** AWS's binary event stream (Bedrock), read into events as SSE is. */
  private readonly eventStream: EventStreamReader | undefined;

  constructor(
    private readonly contentType: string,
    private readonly startedAt: number,
    private readonly now: () => number,
    private readonly keepMax: number,
    /** UPSTREAM_API_KEY: an upstream that echoes it (an error about the key) never has it kept. */
    private readonly secret?: string,
  ) {
    this.sse = contentType.includes('text/event-stream');
    this.json = contentType.includes('json');
    this.eventStream = contentType.includes('application/vnd.amazon.eventstream') ? new EventStreamReader() : undefined;
    this.parser = createParser({
      onEvent: (message) => this.events.push({ event: message.event ?? null, data: message.data, atMs: this.now() - this.startedAt }),
    });
  }

  async *through(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
    const decoder = new TextDecoder();
    for await (const chunk of body) {
      this.size += chunk.length;
      if (this.whole && this.size > this.keepMax) {
        // Events already parsed stay (they are within the bound); the rest only passes through.
        this.whole = false;
        this.chunks = [];
      }
      if (this.whole) {
        if (this.sse) this.parser.feed(decoder.decode(chunk, { stream: true }));
        else if (this.eventStream) this.keepMessages(this.eventStream.feed(chunk));
        else this.chunks.push(Buffer.from(chunk));
      }
      yield chunk;
    }
    this.complete = true;
  }

  private keepMessages(messages: ReadonlyArray<{ event: string; data: string }>): void {
    for (const { event, data } of messages) this.events.push({ event, data, atMs: this.now() - this.startedAt });
  }

  /** The bytes as they came, for an answer that is no JSON (a video's content); only while whole. */
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  private described(): { body: { type: string; size: number } } {
    return { body: { type: this.contentType.split(';')[0] || 'application/octet-stream', size: this.size } };
  }

  /**
   * What was said, at most `maxChars` of it: the stream's events (those that fit), a JSON-array
   * stream's elements or the JSON body (when it fits whole, else its type and size), with
   * `truncated` when something was left out.
   */
  answer(maxChars = Infinity): RelayedAnswer {
    if (this.sse || this.eventStream) {
      const events: Array<{ event: string | null; data: unknown }> = [];
      let chars = 0;
      for (const { event, data } of this.events) {
        chars += data.length;
        if (chars > maxChars) break;
        events.push({ event, data: parsed(this.redacted(data)) });
      }
      return events.length < this.events.length || !this.whole ? { events, truncated: true } : { events };
    }
    if (!this.json) return this.described();
    if (!this.whole || this.size > maxChars) return { ...this.described(), truncated: true };
    const text = this.redacted(Buffer.concat(this.chunks).toString('utf8'));
    // Ollama's streams: one JSON value a line, each an event.
    if (this.contentType.includes('ndjson')) return { events: text.split('\n').filter((line) => line.trim() !== '').map((line) => ({ event: null, data: parsed(line) })) };
    const body = parsed(text);
    return Array.isArray(body) ? { events: body.map((data) => ({ event: null, data })) } : { body };
  }

  private redacted(text: string): string {
    return this.secret ? text.replaceAll(this.secret, REDACTED) : text;
  }

  /** The upstream's pace: the wait for the first event and the mean gap after it. */
  timing(): { first_chunk_ms: number; chunk_ms: number } | undefined {
    const times = this.events.map((e) => e.atMs);
    if (times.length === 0) return undefined;
    const gaps = times.length > 1 ? (times[times.length - 1]! - times[0]!) / (times.length - 1) : 0;
    return { first_chunk_ms: Math.round(times[0]!), chunk_ms: Math.round(gaps) };
  }
}
