// The seam every chat style implements: pure functions from wire bodies to the neutral model and back.
import type { Envelope, MockError } from '../conversation/errors.js';
import type { Framing, StreamEvent } from '../conversation/plan.js';
import type { RecordedAnswer, RecordedReply } from '../conversation/recorded.js';
import type { ChatRequest, Reply, StyleName, Turn } from '../conversation/types.js';

/** What a style sees of an HTTP request: already parsed, no Koa. */
export interface StyleInput {
  body: unknown;
  query: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Path parameters, e.g. `model` and `action` for generate-content. */
  params: Record<string, string>;
}

/** Read access to the session's stored conversations (responses style `previous_response_id`). */
export interface DecodeContext {
  storedTurns(responseId: string): Turn[] | undefined;
}

export interface ChatStyle {
  name: StyleName;
  envelope: Envelope;
  decode(input: StyleInput, context: DecodeContext): ChatRequest;
  /** The whole (non-stream) JSON body. */
  encode(reply: Reply, request: ChatRequest): unknown;
  /** The stream, event by event; joined, it says what `encode` says. */
  events(reply: Reply, request: ChatRequest): StreamEvent[];
  /** How the stream is framed for this request (default `sse`). */
  framing?(input: StyleInput): Framing;
  /** The style's in-stream error event(s), for the `stream_error` fault. */
  streamError(error: MockError, context?: StreamErrorContext): StreamEvent[];
  /** An answer in this style (a whole body or its stream's events) read back into the neutral reply. */
  read(answer: RecordedAnswer): RecordedReply;
  /** What the session keeps of this reply for later requests, if anything (responses style). */
  store?(reply: Reply, request: ChatRequest): StoredReply | undefined;
}

/** The stream a `stream_error` fault breaks into, for styles whose error events describe it. */
export interface StreamErrorContext {
  reply: Reply;
  request: ChatRequest;
}

/** A reply kept in the session: `turns` is the conversation up to and including its output. */
export interface StoredReply {
  id: string;
  turns: Turn[];
  body: unknown;
}
