// A response plan: what a style wants written, handed to the single writer in src/server/.
// Styles build plans; only the writer turns them into bytes on a socket.
import type { Pacing } from './types.js';

export interface StreamEvent {
  /** SSE `event:` name; omitted for styles that send bare `data:` lines. */
  event?: string;
  /** An object is JSON-encoded; a string is written as is (e.g. `[DONE]`). */
  data: unknown;
  /** A content chunk: the writer waits the pacing delay before it, and faults count it. */
  paced?: boolean;
}

/** `sse`: `event:`/`data:` frames; `json-array`: generate-content's streamed JSON array. */
export type Framing = 'sse' | 'json-array';

export type Plan =
  | { kind: 'json'; status: number; headers: Record<string, string>; body: unknown }
  | {
      kind: 'stream';
      status: number;
      headers: Record<string, string>;
      framing: Framing;
      events: StreamEvent[];
      pacing: Pacing;
      /** The style's in-stream error events that end the stream early when the mock shuts down. */
      interrupted?: StreamEvent[];
    }
  | { kind: 'binary'; status: number; headers: Record<string, string>; contentType: string; data: Uint8Array };

/** A fault the writer performs on top of a plan (scenarios). */
export type Fault =
  | { kind: 'delay'; ms: number }
  | { kind: 'cut_stream'; afterChunks: number }
  /** `events` are the style's own in-stream error events, sent after `afterChunks` chunks. */
  | { kind: 'stream_error'; afterChunks: number; events: StreamEvent[] }
  | { kind: 'malformed' }
  | { kind: 'reset' };
