// `{ type: "error", error: { type, message } }` for the messages style; overloaded is 529 here.
import type { ErrorKind, Envelope, MockError } from '../../conversation/errors.js';
import { answer, statusOf } from '../envelope.js';

const TYPES: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  unauthorized: 'authentication_error',
  forbidden: 'permission_error',
  not_found: 'not_found_error',
  too_large: 'request_too_large',
  rate_limit: 'rate_limit_error',
  server_error: 'api_error',
  overloaded: 'overloaded_error',
  timeout: 'timeout_error',
};

function rateLimitHeaders(error: MockError, nowIso: (ms: number) => string): Record<string, string> {
  if (error.kind !== 'rate_limit') return {};
  const info = error.options.rateLimits;
  if (!info) return { 'anthropic-ratelimit-requests-remaining': '0' };
  // `input_tokens` is spelled `input-tokens` in the vendor's names.
  return Object.fromEntries(
    info.flatMap((figures) => {
      const name = `anthropic-ratelimit-${figures.unit.replace('_', '-')}`;
      return [
        [`${name}-limit`, String(figures.limit)],
        [`${name}-remaining`, String(figures.remaining)],
        [`${name}-reset`, nowIso(figures.resetAtMs)],
      ];
    }),
  );
}

/** The body repeats the `request-id` header as `request_id`, as the vendor's does. */
export const messagesEnvelope: Envelope = (error, requestId) =>
  answer(
    error,
    statusOf(error, { overloaded: 529 }),
    { type: 'error', error: { type: TYPES[error.kind], message: error.message }, request_id: requestId ?? null },
    // Whole seconds, rounded up: a client that waits until then is let in.
    rateLimitHeaders(error, (ms) => new Date(Math.ceil(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z')),
  );
