// How a stream's events become bytes, one framer per framing a door may name (Door.framing): the
// content type, each event's frame, and what closes the stream. The writer frames through this
// table only, so a door with another framing is one more entry here and nothing in the writer.
import type { Framing } from '../conversation/plan.js';
import { awsEventMessage } from '../styles/bedrock/event-stream.js';
import { bytesBound, type JoinedFrames, type KeptItems, writeBytes } from './frame-bytes.js';
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
 * join the text as UTF-8. A run of chunks stays whole until taken: a stream written at its end
 * may take it as bytes instead (frame-bytes.ts).
 */
export class Framed {
  private parts: (string | JoinedFrames)[] = [];
  private bytes: Uint8Array[] = [];
  /** How many strings the runs among `parts` stand for, joined. */
  private runParts = 0;

  add(frame: string | Uint8Array): void {
    if (typeof frame === 'string' && this.bytes.length === 0) this.parts.push(frame);
    else {
      if (this.parts.length > 0) this.bytes.push(Buffer.from(this.text()));
      this.parts = [];
      this.runParts = 0;
      this.bytes.push(typeof frame === 'string' ? Buffer.from(frame) : frame);
    }
  }

  /**
   * `items` with `between` between two of them, after `open` and before `close`: text only.
   * `kept`: the items' UTF-8 bytes, when they are a kept split's.
   */
  addJoined(open: string, items: readonly string[], between: string, close: string, kept?: KeptItems): void {
    this.parts.push({ open, items, between, close, kept });
    this.runParts += 2 * items.length;
  }

  get empty(): boolean {
    return this.parts.length === 0 && this.bytes.length === 0;
  }

  /** Everything added since the last take, and empties it. */
  take(): string | Uint8Array {
    const text = this.text();
    const taken = this.bytes.length === 0 ? text : Buffer.concat(text ? [...this.bytes, Buffer.from(text)] : this.bytes);
    this.clear();
    return taken;
  }

  /**
   * Everything added since the last take as UTF-8 bytes in the buffer `room` gives for a size (at
   * least that size), and empties it; undefined, taking nothing, unless it is all text and its
   * runs kept splits'.
   */
  takeBytes(room: (size: number) => Buffer | undefined): Buffer | undefined {
    const size = this.bytes.length === 0 ? bytesBound(this.parts) : undefined;
    const into = size === undefined ? undefined : room(size);
    if (into === undefined) return undefined;
    const taken = writeBytes(this.parts, into);
    this.clear();
    return taken;
  }

  /** Emptied in place, not replaced: a paced stream takes what it framed at every event, and nothing taken holds these lists. */
  private clear(): void {
    if (this.parts.length > 0) this.parts.length = 0;
    if (this.bytes.length > 0) this.bytes.length = 0;
    this.runParts = 0;
  }

  /** The text, each run's strings in an array sized once (pushed one by one, they grew it three times over). */
  private text(): string {
    // A paced stream's usual write is one frame: joined, it was copied once more.
    if (this.runParts === 0) return this.parts.length === 1 ? (this.parts[0] as string) : (this.parts as string[]).join('');
    const strings = new Array<string>(this.parts.length + this.runParts);
    let at = 0;
    for (const part of this.parts) {
      if (typeof part === 'string') {
        strings[at++] = part;
        continue;
      }
      const { open, items, between, close } = part;
      strings[at++] = open;
      for (let i = 0; i < items.length; i++) {
        if (i > 0) strings[at++] = between;
        strings[at++] = items[i]!;
      }
      strings[at++] = close;
    }
    return strings.join('');
  }
}
