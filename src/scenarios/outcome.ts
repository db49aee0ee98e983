// What a step does to a request, as data: an error (a MockError, so each style's envelope,
// status and headers apply) or a fault for the writer. Defaults follow SPEC section 9.
import { MockError, type ErrorKind, type RateLimitInfo } from '../conversation/errors.js';
import type { Fault } from '../conversation/plan.js';
import type { Step } from './steps.js';

type ErrorStep = Extract<Step, { error: ErrorKind; fault?: undefined }>;
type FaultStep = Extract<Step, { fault: string }>;

/** A fault as a scenario states it, before a style spells its in-stream error. */
export type FaultSpec = Exclude<Fault, { kind: 'stream_error' }> | { kind: 'stream_error'; afterChunks: number; error: MockError };

export const TIMEOUT_MS = 10_000;
const DELAY_MS = 2_000;
const AFTER_CHUNKS = 3;

const MESSAGES: Record<ErrorKind, string> = {
  invalid_request: 'The request is invalid.',
  unauthorized: 'Incorrect API key provided.',
  forbidden: 'You do not have permission to perform this request.',
  not_found: 'The requested resource was not found.',
  too_large: 'The request is too large.',
  rate_limit: 'Rate limit reached for requests. Please try again later.',
  server_error: 'The server had an error while processing your request. Sorry about that!',
  overloaded: 'The service is overloaded. Please try again later.',
  timeout: 'The request timed out.',
};

/** A numeric `retry-after` the step sets itself, so the style's own hints say the same. */
function statedRetryAfter(headers: Record<string, string> | undefined): number | undefined {
  const value = headers?.['retry-after'] ?? headers?.['Retry-After'];
  const seconds = value === undefined ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

function limitMessage(info: RateLimitInfo, retryAfter: number): string {
  return `Rate limit reached: ${info.limit} ${info.unit} per window, ${info.remaining} left. Please try again in ${retryAfter}s.`;
}

export function stepError(
  kind: ErrorKind,
  step: Pick<ErrorStep, 'status' | 'message' | 'headers' | 'body'>,
  limited?: { info: RateLimitInfo; retryAfterSeconds: number },
): MockError {
  const rateLimited = kind === 'rate_limit';
  const retryAfterSeconds = rateLimited ? (statedRetryAfter(step.headers) ?? limited?.retryAfterSeconds ?? 1) : undefined;
  const fallback = limited && rateLimited ? limitMessage(limited.info, retryAfterSeconds!) : MESSAGES[kind];
  return new MockError(kind, step.message ?? fallback, {
    status: step.status,
    headers: step.headers,
    body: step.body,
    retryAfterSeconds,
    rateLimit: limited?.info,
  });
}

export function faultOf(step: FaultStep): FaultSpec {
  switch (step.fault) {
    case 'delay':
      return { kind: 'delay', ms: step.delay_ms ?? DELAY_MS };
    case 'cut_stream':
      return { kind: 'cut_stream', afterChunks: step.after_chunks ?? AFTER_CHUNKS };
    case 'stream_error':
      return {
        kind: 'stream_error',
        afterChunks: step.after_chunks ?? AFTER_CHUNKS,
        error: stepError(step.error ?? 'server_error', step),
      };
    case 'malformed':
      return { kind: 'malformed' };
    case 'reset':
      return { kind: 'reset' };
  }
}
