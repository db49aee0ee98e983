// What a step does to a request, as data: an error (a MockError, so each style's envelope,
// status and headers apply) or a fault for the writer. Defaults follow SPEC section 9.
import { MockError, type ErrorKind, type QuotaBreach, type RateLimitInfo } from '../conversation/errors.js';
import { isSemantic, type SemanticFault, type TransportFaultName } from '../conversation/faults.js';
import type { Fault } from '../conversation/plan.js';
import type { Step } from './steps.js';

type ErrorStep = Extract<Step, { error: ErrorKind; fault?: undefined }>;
type FaultStep = Extract<Step, { fault: string }>;


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

const BUDGET_WORDS: Record<QuotaBreach['budget'], string> = {
  requests: 'requests',
  input_tokens: 'input tokens',
  output_tokens: 'output tokens',
  tokens: 'tokens',
};

function window(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;
}

/** Names the budget, its limit, what was used and what the request asked (SPEC 17). */
function limitMessage(quota: QuotaBreach, retryAfter: number): string {
  const words = BUDGET_WORDS[quota.budget];
  const asked = quota.budget === 'output_tokens' ? 'no output tokens are left for this request' : `this request needs ${quota.asked} more`;
  return `Rate limit reached for ${words} on ${quota.model}: limit ${quota.limit} per ${window(quota.windowMs)}, used ${quota.used}, ${asked}. Please try again in ${retryAfter}s.`;
}

/** A refusal by a stateful limit: the figures of every budget, and the one overdrawn. */
export interface Limited {
  info: readonly RateLimitInfo[];
  quota: QuotaBreach;
  retryAfterSeconds: number;
}

export function stepError(
  kind: ErrorKind,
  step: Pick<ErrorStep, 'status' | 'message' | 'headers' | 'body'>,
  limited?: Limited,
): MockError {
  const rateLimited = kind === 'rate_limit';
  const retryAfterSeconds = rateLimited ? (statedRetryAfter(step.headers) ?? limited?.retryAfterSeconds ?? 1) : undefined;
  const fallback = limited && rateLimited ? limitMessage(limited.quota, retryAfterSeconds!) : MESSAGES[kind];
  return new MockError(kind, step.message ?? fallback, {
    status: step.status,
    headers: step.headers,
    body: step.body,
    retryAfterSeconds,
    rateLimits: limited?.info,
    quota: limited?.quota,
  });
}

/** A transport fault for the writer, or a semantic one for the reply. */
export function faultOf(step: FaultStep): { fault: Fault } | { misbehave: SemanticFault } {
  if (isSemantic(step.fault)) {
    const { fault: name, violation, tool_name: toolName, language } = step;
    return { misbehave: { name, ...(violation && { violation }), ...(toolName && { toolName }), ...(language && { language }) } };
  }
  return { fault: transportFault(step, step.fault) };
}

function transportFault(step: FaultStep, name: TransportFaultName): Fault {
  switch (name) {
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
