// How a stream's events become bytes, one framer per framing a door may name (Door.framing): the
// content type, each event's frame, and what closes the stream. The writer frames through this
// table only, so a door with another framing is one more entry here and nothing in the writer.
import type { Framing } from '../conversation/plan.js';
import { awsEventMessage } from '../styles/bedrock/event-stream.js';
import { sseFrame } from './sse.js';

const PROCESSING = ': OPENROUTER PROCESSING\n\n';

/** An event as the writer hands it over: its name, its data as text, and whether that text is JSON. */
export interface FramedEvent {
  name: string | undefined;
  data: string;
  /** The data is JSON text (which holds no raw line break); else a string written as it is. */
  json: boolean;
}

export interface Framer {
  contentType: string;
  /** `index`: how many events were framed before this one. Text, or bytes for a binary framing. */
  frame(event: FramedEvent, index: number): string | Uint8Array;
  /** What follows the last event, given how many were framed. */
  close(framed: number): string;
}

export const FRAMERS: Readonly<Record<Framing, Framer>> = {
  sse: {
    contentType: 'text/event-stream; charset=utf-8',
    frame: ({ name, data, json }) => sseFrame(name || undefined, data, json),
    close: () => '',
  },
  // generate-content without `alt=sse`: the events are the items of one JSON array, as the vendor writes it.
  'json-array': {
    contentType: 'application/json; charset=utf-8',
    frame: ({ data }, index) => (index === 0 ? `[${data}` : `,\r\n${data}`),
    close: (framed) => (framed === 0 ? '[]' : ']'),
  },
  // OpenRouter's: SSE with a comment line before the first event, as it says it is still working.
  'sse-processing': {
    contentType: 'text/event-stream; charset=utf-8',
    frame: ({ name, data, json }, index) => `${index === 0 ? PROCESSING : ''}${sseFrame(name || undefined, data, json)}`,
    close: (framed) => (framed === 0 ? PROCESSING : ''),
  },
  // One JSON value a line, event names dropped (Ollama's streams); a malformed fault's text goes as it is.
  ndjson: {
    contentType: 'application/x-ndjson',
    frame: ({ data }) => `${data}\n`,
    close: () => '',
  },
  'aws-event-stream': {
    contentType: 'application/vnd.amazon.eventstream',
    frame: ({ name, data }) => awsEventMessage(name, data),
    close: () => '',
  },
};

/**
 * What was framed and not yet written: text stays parts joined once when taken (most streams; a
 * run of chunks is hundreds of parts, so its frames are copied once, into what goes out), bytes
 * join the text as UTF-8.
 */
export class Framed {
  private parts: string[] = [];
  private bytes: Uint8Array[] = [];

  add(frame: string | Uint8Array): void {
    if (typeof frame === 'string' && this.bytes.length === 0) this.parts.push(frame);
    else {
      if (this.parts.length > 0) this.bytes.push(Buffer.from(this.parts.join('')));
      this.parts = [];
      this.bytes.push(typeof frame === 'string' ? Buffer.from(frame) : frame);
    }
  }

  /** `items` with `between` between two of them, after `open` and before `close`: text only. */
  addJoined(open: string, items: readonly string[], between: string, close: string): void {
    // Sized once: pushed one by one, a run's hundreds of parts grew the array (and fed the collector) three times over.
    const before = this.parts;
    const parts = new Array<string>(before.length + 2 * items.length + 1);
    let at = 0;
    for (; at < before.length; at++) parts[at] = before[at]!;
    parts[at++] = open;
    for (let i = 0; i < items.length; i++) {
      if (i > 0) parts[at++] = between;
      parts[at++] = items[i]!;
    }
    parts[at] = close;
    this.parts = parts;
  }

  get empty(): boolean {
    return this.parts.length === 0 && this.bytes.length === 0;
  }

  /** Everything added since the last take, and empties it. */
  take(): string | Uint8Array {
    const text = this.parts.join('');
    const taken = this.bytes.length === 0 ? text : Buffer.concat(text ? [...this.bytes, Buffer.from(text)] : this.bytes);
    this.parts = [];
    this.bytes = [];
    return taken;
  }
}
