// A recorded answer read back into the neutral reply: what the recorder writes as a fixture and
// what `GET /__admin/requests/{id}/fixture` pins. Each style reads its own wire (styles/*/read.ts);
// the answers come from outside (an upstream), so nothing here trusts their shape.
import type { ErrorKind } from './error-codes.js';
import type { FinishReason } from './types.js';

/** A whole JSON body, or the stream's events in order (`data` parsed JSON, or text like `[DONE]`). */
export interface RecordedAnswer {
  body?: unknown;
  events?: Array<{ event?: string | null; data: unknown }>;
}

export interface RecordedToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** The raw text of a freeform (custom) tool's call, whose arguments are then empty. */
  input?: string;
}

export interface RecordedUsage {
  inputTokens: number;
  /** Output as the vendor bills it: visible text, tool calls and reasoning together. */
  outputTokens: number;
}

export interface RecordedReply {
  text: string;
  /** The text deltas in the order the stream sent them; only for streams. */
  chunks?: string[];
  reasoning?: string;
  toolCalls: RecordedToolCall[];
  finishReason?: FinishReason;
  usage?: RecordedUsage;
}

/** An error answer as a fixture replays it, in whichever style asks. */
export interface RecordedError {
  status: number;
  kind: ErrorKind;
  message: string;
  /** Only what a client acts on: retry-after and the rate-limit family. */
  headers: Record<string, string>;
}

export type Json = Record<string, unknown>;

export function asObject(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Arguments as the wire spells them (a JSON string, or already an object); anything else is `{}`. */
export function parseArguments(value: unknown): Json {
  if (typeof value !== 'string') return asObject(value);
  try {
    return asObject(JSON.parse(value));
  } catch {
    // A stream cut inside the arguments leaves half a JSON text: the call is kept, without them.
    return {};
  }
}

export function usageOf(input: unknown, output: unknown): RecordedUsage | undefined {
  const inputTokens = asNumber(input);
  const outputTokens = asNumber(output);
  return inputTokens === undefined || outputTokens === undefined ? undefined : { inputTokens, outputTokens };
}

/** A freeform tool's call keeps its raw text as it came; another's text is its JSON arguments. */
export function recordedCall(name: string, text: unknown, freeform: boolean): RecordedToolCall {
  return freeform ? { name, arguments: {}, input: asString(text) ?? '' } : { name, arguments: parseArguments(text) };
}

/**
 * Tool calls assembled from a stream: each opened by a name under a key (index or item id), its
 * arguments (or a freeform call's input) arriving as text pieces, read once the stream is over.
 */
export class StreamedCalls {
  private readonly calls = new Map<string | number, { name: string; text: string; freeform: boolean }>();

  open(key: string | number, name: string, text = '', freeform = false): void {
    if (!this.calls.has(key)) this.calls.set(key, { name, text, freeform });
  }

  append(key: string | number, piece: string): void {
    const call = this.calls.get(key);
    if (call) call.text += piece;
  }

  /** The whole arguments when the stream repeats them at the end of a call. */
  complete(key: string | number, text: string): void {
    const call = this.calls.get(key);
    if (call) call.text = text;
  }

  get size(): number {
    return this.calls.size;
  }

  toolCalls(): RecordedToolCall[] {
    return [...this.calls.values()].map((call) => recordedCall(call.name, call.text, call.freeform));
  }
}

/** Reasoning is kept only when there is some to show: an empty one says nothing a fixture needs. */
export function reasoningOf(text: string | undefined): { reasoning?: string } {
  return text ? { reasoning: text } : {};
}

/** The reply of a stream: its text is its chunks joined; empty deltas carry nothing. */
export function streamedReply(
  chunks: string[],
  reasoning: string[],
  rest: Omit<RecordedReply, 'text' | 'chunks' | 'reasoning'>,
): RecordedReply {
  const pieces = chunks.filter((c) => c !== '');
  return { text: pieces.join(''), chunks: pieces, ...reasoningOf(reasoning.join('')), ...rest };
}

const KIND_OF_STATUS: Record<number, ErrorKind> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  429: 'rate_limit',
  503: 'overloaded',
  529: 'overloaded',
  504: 'timeout',
};

/** The scenario kind an error status replays as (SPEC 12): other 4xx are invalid requests, other 5xx server errors. */
export function kindOfStatus(status: number): ErrorKind {
  return KIND_OF_STATUS[status] ?? (status < 500 ? 'invalid_request' : 'server_error');
}

const KEPT_HEADER = /^(retry-after|retry-after-ms|x-ratelimit-.+|anthropic-ratelimit-.+)$/;

/**
 * An error answer as a fixture keeps it. Every style's envelope carries `error.message` (a
 * gateway's plain text is kept as it came); the headers are cut to the allow-list, names sorted.
 */
export function readErrorAnswer(answer: { status: number; headers: Record<string, string>; body?: unknown }): RecordedError {
  const envelope = asObject(asObject(answer.body).error);
  const message = asString(envelope.message) ?? asString(answer.body) ?? `The upstream answered ${answer.status}.`;
  const headers = Object.fromEntries(
    Object.entries(answer.headers)
      .map(([name, value]) => [name.toLowerCase(), String(value)] as const)
      .filter(([name]) => KEPT_HEADER.test(name))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return { status: answer.status, kind: kindOfStatus(answer.status), message, headers };
}
