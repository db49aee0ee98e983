// The seam every chat style implements: pure functions from wire bodies to the neutral model and back.
import type { Envelope, MockError } from '../conversation/errors.js';
import type { StreamEvent, StreamPart } from '../conversation/plan.js';
import type { RecordedAnswer, RecordedReply } from '../conversation/recorded.js';
import type { ChatRequest, Reply, StyleName, Turn } from '../conversation/types.js';
import type { AnswerShape } from './answer-template.js';

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
  /** How `encode` makes its body, when it is made with holes: a fixture's answer is then written from a template. */
  answer?: AnswerShape;
  /** The stream, event by event; joined, it says what `encode` says. */
  events(reply: Reply, request: ChatRequest): StreamEvent[];
  /** `events` as the writer reads them, a run of chunks as one span, where the style makes spans. */
  parts?(reply: Reply, request: ChatRequest): StreamPart[];
  /** The style's in-stream error event(s), for the `stream_error` fault. */
  streamError(error: MockError, context?: StreamErrorContext): StreamEvent[];
  /** An answer in this style (a whole body or its stream's events) read back into the neutral reply. */
  read(answer: RecordedAnswer): RecordedReply;
  /** What the session keeps of this reply for later requests, if anything (responses style). */
  store?(reply: Reply, request: ChatRequest): StoredReply | undefined;
  /** A reply its vendor answers as an error instead (Azure's prompt filter), in the style's envelope. */
  refusal?(reply: Reply): MockError | undefined;
  /** Headers its vendor sends with every answer (OpenRouter's `X-Generation-Id`). */
  headers?(reply: Reply): Record<string, string>;
  /** How a provider's own model ids name the catalog's models, for a provider that has its own forms. */
  models?: ModelIds;
}

/** A provider's model-id forms (a tag, a vendor prefix, a date suffix) mapped onto the catalog by rule. */
export interface ModelIds {
  /** The catalog id a wire id names, if the catalog lists it under one of the provider's forms. */
  catalogId(id: string, listed: (id: string) => boolean): string | undefined;
  /** The provider's own not-found for an id no form of which the catalog lists. */
  notFound?(id: string): MockError;
}

/** A style's token counting: the chat request decoded as counting reads it, and the count's body. */
export interface TokenCounting {
  /** An empty `model` means the request named none, where the endpoint allows that. */
  decode(input: StyleInput, context: DecodeContext): ChatRequest;
  encode(inputTokens: number, request: ChatRequest): unknown;
  /** The provider's own model-id forms, where the model is named in the body (Vertex's Anthropic count). */
  models?: ModelIds;
}

/** The stream a `stream_error` fault breaks into, for styles whose error events describe it. */
export interface StreamErrorContext {
  reply: Reply;
  request: ChatRequest;
  /** How many of the stream's events were sent before the error. */
  cutAt: number;
  requestId: string;
}

/** A reply kept in the session: its own turns (new input, output), linked to the response it continued. */
export interface StoredReply {
  id: string;
  previous?: string;
  turns: Turn[];
  body: unknown;
  inputItems: ReadonlyArray<{ id: string }>;
  /** Answered at once as queued, the reply shown only later (responses `background: true`). */
  background: boolean;
}
