// `{ error: { message, type, param, code } }`: chat-completions, responses, images, videos, the
// OpenAI model list, the admin API and unknown paths.
import type { ErrorCode } from '../conversation/error-codes.js';
import type { ErrorKind, Envelope, MockError, RateLimitInfo } from '../conversation/errors.js';
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

/** OpenAI reports requests and tokens; a limit of input or output tokens alone shows as its tokens. */
function tokenFigures(info: readonly RateLimitInfo[]): RateLimitInfo | undefined {
  return info.find((i) => i.unit === 'tokens') ?? info.find((i) => i.unit === 'input_tokens') ?? info.find((i) => i.unit === 'output_tokens');
}

export function openaiRateLimitHeaders(error: MockError): Record<string, string> {
  const info = error.options.rateLimits;
  if (error.kind !== 'rate_limit') return {};
  if (!info) {
    return { 'x-ratelimit-limit-requests': '60', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': `${error.options.retryAfterSeconds ?? 1}s` };
  }
  const shown: Array<[string, RateLimitInfo | undefined]> = [['requests', info.find((i) => i.unit === 'requests')], ['tokens', tokenFigures(info)]];
  return Object.fromEntries(
    shown.flatMap(([name, figures]) =>
      figures
        ? [
            [`x-ratelimit-limit-${name}`, String(figures.limit)],
            [`x-ratelimit-remaining-${name}`, String(figures.remaining)],
            [`x-ratelimit-reset-${name}`, duration(figures.resetMs)],
          ]
        : [],
    ),
  );
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
