// `{ error: { code, message, status } }` for the generate-content style, with a RetryInfo detail
// on rate limits as the vendor sends it.
import type { Envelope, MockError } from '../../conversation/errors.js';
import { answer, statusOf } from '../envelope.js';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function statusName(status: number): string {
  return STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

function details(error: MockError): unknown[] | undefined {
  if (error.kind !== 'rate_limit') return undefined;
  const seconds = error.options.retryAfterSeconds ?? (error.options.rateLimit ? error.options.rateLimit.resetMs / 1000 : 1);
  return [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` }];
}

export const generateContentEnvelope: Envelope = (error) => {
  const status = statusOf(error);
  const extra = details(error);
  return answer(error, status, {
    error: { code: status, message: error.message, status: statusName(status), ...(extra ? { details: extra } : {}) },
  });
};
