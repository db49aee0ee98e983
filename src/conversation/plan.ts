// A response plan: what a style wants written, handed to the single writer in src/server/.
// Styles build plans; only the writer turns them into bytes on a socket.
import type { MockError } from './errors.js';
import type { Pacing } from './types.js';

/** What the chunks of one run share: their event name, the JSON around their piece, and the pieces. */
export interface PieceRun {
  readonly event: string | undefined;
  readonly head: string;
  readonly tail: string;
  /** Every piece of the run in order, the chunk at `at` holding `pieces[at]`; shared, never changed. */
  readonly pieces: readonly string[];
}

export interface StreamEvent {
  /** SSE `event:` name; omitted for styles that send bare `data:` lines. */
  event?: string;
  /** An object is JSON-encoded; a string is written as is (e.g. `[DONE]`). */
  readonly data: unknown;
  /** `data` already serialized, written as is. */
  readonly json?: string;
  /** A content chunk: the writer waits the pacing delay before it, and faults count it. */
  paced?: boolean;
  /** A chunk serialized around its piece (styles/piece-events.ts): the JSON around it, shared by its run. */
  readonly run?: PieceRun;
  /** With `run`: the chunk's piece of text, its JSON being `run.head + JSON.stringify(piece) + run.tail`. */
  readonly piece?: string;
  /** With `run`: where its piece is in `run.pieces` (a run's chunks follow one another in order). */
  readonly at?: number;
}

/**
 * A run of chunks standing for one chunk a piece of `pieces`, made one at a time as the writer
 * reaches them (styles/piece-events.ts): a paced stream waits seconds for its last chunks, and
 * each chunk made before the first byte was held, and copied by every collection, until then.
 */
export interface PieceSpan extends PieceRun {
  /** Whether its chunks are paced. */
  readonly paced: boolean | undefined;
  /** The chunk of `pieces[at]`. */
  chunk(at: number): StreamEvent;
}

/** A stream's events as the writer reads them: each event, or a span of chunks in its place. */
export type StreamPart = StreamEvent | PieceSpan;

export function isSpan(part: StreamPart): part is PieceSpan {
  return typeof (part as Partial<PieceSpan>).chunk === 'function';
}

/**
 * How a door's streams are framed (the writer's framers): `sse`, `event:`/`data:` frames;
 * `json-array`, generate-content's streamed JSON array; `ndjson`, one JSON value a line;
 * `sse-processing`, SSE opened by OpenRouter's comment line; `aws-event-stream`, AWS's binary
 * messages (Bedrock).
 */
export type Framing = 'sse' | 'json-array' | 'ndjson' | 'sse-processing' | 'aws-event-stream';

/** Bytes made as they are sent, `size` of them in all (a speech too large to hold). */
export interface BinaryPieces {
  readonly size: number;
  readonly pieces: AsyncIterable<Uint8Array>;
}

export type Plan =
  | {
      kind: 'json';
      status: number;
      headers: Record<string, string>;
      body: unknown;
      /**
       * `body`'s JSON when the operation wrote it itself, faster than a serialiser scanning long
       * texts that need no escape (base64 vectors): whole, or in the pieces that joined make it.
       */
      text?: string | readonly string[];
    }
  | {
      kind: 'stream';
      status: number;
      headers: Record<string, string>;
      /** May be made when first read: the writer reads them once the headers are out. */
      readonly events: StreamEvent[];
      /** `events` as the writer reads them, a run of chunks as one span; left out when they are the same. */
      readonly parts?: readonly StreamPart[];
      pacing: Pacing;
      /**
       * Makes the reply the events come from, a slice of the loop at a time (exchange/late-stream.ts):
       * the writer calls it once the headers are out, as the first event comes near. Left out when
       * the events are made from a reply made before; they are readable without it too (made at once).
       */
      make?(): Promise<void>;
      /**
       * The style's in-stream error events, for the one error that ends a stream early: a
       * scenario's `stream_error` fault, or the mock shutting down. They learn how many events
       * went before (`cutAt`), so styles that number their events go on.
       */
      streamError: (error: MockError, cutAt: number) => StreamEvent[];
    }
  | {
      kind: 'binary';
      status: number;
      headers: Record<string, string>;
      contentType: string;
      data: Uint8Array | BinaryPieces;
      /** What the journal says of the bytes beside their type and size (an audio's duration). */
      about?: Record<string, unknown>;
    }
  /**
   * An upstream's answer passed on as it arrives; `answered(maxChars)` says what it was, once it
   * is over, in at most about that many characters.
   */
  | {
      kind: 'relay';
      status: number;
      headers: Record<string, string>;
      /** The headers as the journal may show them (no credentials, cookies or the upstream key). */
      shownHeaders: Record<string, string>;
      body: AsyncIterable<Uint8Array>;
      answered(maxChars: number): RelayedAnswer;
    };

/** A journal entry keeps this many characters of an answer's body or stream frames; past it, the entry says `truncated`. */
export const JOURNAL_ANSWER_MAX = 1024 * 1024;

/** What a relayed answer said, parsed once it ended: its JSON body, or its stream's events. */
export type RelayedAnswer = ({ body: unknown } | { events: Array<{ event: string | null; data: unknown }> }) & { truncated?: true };

/** A fault the writer performs on top of a plan (scenarios). */
export type Fault =
  | { kind: 'delay'; ms: number }
  | { kind: 'cut_stream'; afterChunks: number }
  /** `error` sent after `afterChunks` chunks as the stream plan's own in-stream error. */
  | { kind: 'stream_error'; afterChunks: number; error: MockError }
  | { kind: 'malformed' }
  | { kind: 'reset' };
