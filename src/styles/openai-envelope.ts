// `{ error: { message, type, param, code } }`: chat-completions, responses, images, videos, the
// OpenAI model list, the admin API and unknown paths.
import type { ErrorCode } from '../conversation/error-codes.js';
import type { ErrorKind, Envelope, MockError } from '../conversation/errors.js';
import { answer, duration, envelopeEvents, statusOf } from './envelope.js';

const TYPES: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  unauthorized: 'invalid_request_error',
  forbidden: 'permission_error',
  not_found: 'invalid_request_error',
  too_large: 'invalid_request_error',
  rate_limit: 'rate_limit_error',
  server_error: 'server_error',
  overloaded: 'server_error',
  timeout: 'timeout_error',
};

const CODES: Partial<Record<ErrorKind, ErrorCode>> = {
  unauthorized: 'invalid_api_key',
  too_large: 'request_too_large',
  rate_limit: 'rate_limit_exceeded',
  overloaded: 'overloaded',
  timeout: 'timeout',
};

export function openaiRateLimitHeaders(error: MockError): Record<string, string> {
  const info = error.options.rateLimit;
  if (error.kind !== 'rate_limit') return {};
  if (!info) {
    return { 'x-ratelimit-limit-requests': '60', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': `${error.options.retryAfterSeconds ?? 1}s` };
  }
  return {
    [`x-ratelimit-limit-${info.unit}`]: String(info.limit),
    [`x-ratelimit-remaining-${info.unit}`]: String(info.remaining),
    [`x-ratelimit-reset-${info.unit}`]: duration(info.resetMs),
  };
}

export const openaiEnvelope: Envelope = (error) =>
  answer(
    error,
    statusOf(error),
    {
      error: {
        message: error.message,
        type: TYPES[error.kind],
        param: error.options.param ?? null,
        code: error.options.code ?? CODES[error.kind] ?? null,
      },
    },
    openaiRateLimitHeaders(error),
  );

/** The in-stream (and fault) error of the OpenAI-envelope endpoints. */
export const openaiStreamError = envelopeEvents(openaiEnvelope);
