// What every error envelope shares: the status (kind default, style exception, step override),
// retry-after, the step's own headers and a replacement body. Each style adds only its spelling.
import { DEFAULT_STATUS, type Envelope, type ErrorAnswer, type ErrorKind, type MockError } from '../conversation/errors.js';
import type { StreamEvent } from '../conversation/plan.js';

export function statusOf(error: MockError, exceptions: Partial<Record<ErrorKind, number>> = {}): number {
  return error.options.status ?? exceptions[error.kind] ?? DEFAULT_STATUS[error.kind];
}

/** Go-style durations (`1.5s`, `6m0s`, `20ms`) as the OpenAI rate-limit headers spell them. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round(ms - minutes * 60_000) / 1000;
  return minutes > 0 ? `${minutes}m${seconds}s` : `${seconds}s`;
}

export function answer(
  error: MockError,
  status: number,
  body: unknown,
  styleHeaders: Record<string, string> = {},
): ErrorAnswer {
  const headers: Record<string, string> = { ...styleHeaders };
  if (error.options.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.options.retryAfterSeconds);
  Object.assign(headers, error.options.headers);
  return { status, headers, body: error.options.body ?? body };
}

/** A style whose in-stream error is its envelope's body sent as one event's data. */
export function envelopeEvents(envelope: Envelope): (error: MockError) => StreamEvent[] {
  return (error) => [{ data: envelope(error).body }];
}
