// An upstream's answer as it passes through: every chunk goes on to the client the moment it
// arrives, and a copy is kept so that, once the answer is over, it can be read as JSON or as its
// stream's events, with the time each event arrived.
import { createParser } from 'eventsource-parser';
import type { RelayedAnswer } from '../../conversation/plan.js';

export interface CapturedEvent {
  event: string | null;
  data: unknown;
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
  private readonly chunks: Buffer[] = [];
  private readonly events: CapturedEvent[] = [];
  private readonly parser;
  /** Whether the answer arrived whole (not cut by the client or the upstream). */
  complete = false;

  private readonly sse: boolean;
  private readonly json: boolean;

  constructor(
    private readonly contentType: string,
    private readonly startedAt: number,
    private readonly now: () => number,
  ) {
    this.sse = contentType.includes('text/event-stream');
    this.json = contentType.includes('json');
    this.parser = createParser({
      onEvent: (message) => this.events.push({ event: message.event ?? null, data: parsed(message.data), atMs: this.now() - this.startedAt }),
    });
  }

  async *through(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
    const decoder = new TextDecoder();
    for await (const chunk of body) {
      this.chunks.push(Buffer.from(chunk));
      if (this.sse) this.parser.feed(decoder.decode(chunk, { stream: true }));
      yield chunk;
    }
    this.complete = true;
  }

  /** The bytes as they came, for an answer that is no JSON (a video's content). */
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  /** What was said: the stream's events, a JSON-array stream's elements, or the JSON body. */
  answer(): RelayedAnswer {
    if (this.sse) return { events: this.events.map(({ event, data }) => ({ event, data })) };
    if (!this.json) return { body: { type: this.contentType.split(';')[0] || 'application/octet-stream', size: this.bytes().length } };
    const body = parsed(Buffer.concat(this.chunks).toString('utf8'));
    return Array.isArray(body) ? { events: body.map((data) => ({ event: null, data })) } : { body };
  }

  /** The upstream's pace: the wait for the first event and the mean gap after it. */
  timing(): { first_chunk_ms: number; chunk_ms: number } | undefined {
    const times = this.events.map((e) => e.atMs);
    if (times.length === 0) return undefined;
    const gaps = times.length > 1 ? (times[times.length - 1]! - times[0]!) / (times.length - 1) : 0;
    return { first_chunk_ms: Math.round(times[0]!), chunk_ms: Math.round(gaps) };
  }
}
