// The mock's one error vocabulary. Validation, auth, scenarios and routing all raise these kinds;
// each style maps a kind to its own envelope, status and headers.
import { ERROR_CODES, type ErrorCode, type ErrorKind } from './error-codes.js';

export { DEFAULT_STATUS, ERROR_KINDS, type ErrorKind } from './error-codes.js';

export interface MockErrorOptions {
  /** The request field at fault, e.g. `messages[0].content`. */
  param?: string;
  /** A vendor-style code from the catalogue, e.g. `model_not_found`, `fixture_not_found`. */
  code?: ErrorCode;
  /** Overrides the style's status for this kind. */
  status?: number;
  headers?: Record<string, string>;
  /** Replaces the rendered envelope entirely (scenario `body:`). */
  body?: unknown;
  /** Seconds a client should wait, rendered as retry-after and the style's own hints. */
  retryAfterSeconds?: number;
  /** Live rate-limit figures for the style's rate-limit headers, one per budget of the limit. */
  rateLimits?: readonly RateLimitInfo[];
  /** The budget a request would have overdrawn, for styles that describe it (generate-content's QuotaFailure). */
  quota?: QuotaBreach;
}

/** What a stateful limit counts, each over its window (SPEC 17). */
export type RateBudget = 'requests' | 'input_tokens' | 'output_tokens' | 'tokens';

export interface QuotaBreach {
  budget: RateBudget;
  limit: number;
  used: number;
  /** What the request would have spent of it (0 for output tokens, charged once known). */
  asked: number;
  model: string;
  windowMs: number;
}

export interface RateLimitInfo {
  unit: RateBudget;
  limit: number;
  remaining: number;
  /** ms until the window resets. */
  resetMs: number;
  /** Absolute reset time, ms on the mock clock. */
  resetAtMs: number;
}

export class MockError extends Error {
  readonly kind: ErrorKind;
  readonly options: MockErrorOptions;

  constructor(kind: ErrorKind, message: string, options: MockErrorOptions = {}) {
    super(message);
    this.kind = kind;
    this.options = options;
  }
}

export function invalid(message: string, param?: string, code?: ErrorCode): MockError {
  return new MockError('invalid_request', message, { param, code });
}

/** An error named by its catalogue code, which gives its kind. */
export function failure(code: ErrorCode, message: string, options: Omit<MockErrorOptions, 'code'> = {}): MockError {
  return new MockError(ERROR_CODES[code].kind, message, { ...options, code });
}

/** What an envelope makes of an error: the whole HTTP answer. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** `requestId` is the id of the request being answered, for styles whose bodies repeat it. */
export type Envelope = (error: MockError, requestId?: string) => ErrorAnswer;
