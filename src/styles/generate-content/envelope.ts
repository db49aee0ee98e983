// `{ error: { code, message, status } }` for the generate-content style, with a RetryInfo detail
// on rate limits as the vendor sends it, and a QuotaFailure naming the quota a limit refused.
import type { Envelope, MockError, QuotaBreach } from '../../conversation/errors.js';
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

const QUOTA_NAMES: Record<QuotaBreach['budget'], [metric: string, id: string]> = {
  requests: ['requests', 'GenerateRequestsPerModel'],
  input_tokens: ['input_token_count', 'GenerateContentInputTokensPerModel'],
  output_tokens: ['output_token_count', 'GenerateContentOutputTokensPerModel'],
  tokens: ['token_count', 'GenerateContentTokensPerModel'],
};

/** The vendor's `google.rpc.QuotaFailure`: which quota, for which model, at what value. */
function quotaFailure(quota: QuotaBreach): unknown {
  const [metric, id] = QUOTA_NAMES[quota.budget];
  const per = quota.windowMs === 60_000 ? 'PerMinute' : quota.windowMs === 86_400_000 ? 'PerDay' : `Per${quota.windowMs}ms`;
  return {
    '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
    violations: [
      {
        quotaMetric: `generativelanguage.googleapis.com/generate_content_${metric}`,
        quotaId: `${id}${per}`,
        quotaDimensions: { location: 'global', model: quota.model },
        quotaValue: String(quota.limit),
      },
    ],
  };
}

function details(error: MockError): unknown[] | undefined {
  if (error.kind !== 'rate_limit') return undefined;
  const resetMs = error.options.rateLimits?.[0]?.resetMs;
  const seconds = error.options.retryAfterSeconds ?? (resetMs !== undefined ? resetMs / 1000 : 1);
  const retry = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` };
  return error.options.quota ? [quotaFailure(error.options.quota), retry] : [retry];
}

export const generateContentEnvelope: Envelope = (error) => {
  const status = statusOf(error);
  const extra = details(error);
  return answer(error, status, {
    error: { code: status, message: error.message, status: statusName(status), ...(extra ? { details: extra } : {}) },
  });
};
