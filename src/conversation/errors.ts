// The mock's one error vocabulary. Validation, auth, scenarios and routing all raise these kinds;
// each style maps a kind to its own envelope, status and headers.

export const ERROR_KINDS = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'too_large',
  'rate_limit',
  'server_error',
  'overloaded',
  'timeout',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** The status a kind gets unless its style says otherwise (messages: overloaded is 529). */
export const DEFAULT_STATUS: Record<ErrorKind, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  too_large: 413,
  rate_limit: 429,
  server_error: 500,
  overloaded: 503,
  timeout: 504,
};

export interface MockErrorOptions {
  /** The request field at fault, e.g. `messages[0].content`. */
  param?: string;
  /** A vendor-style code, e.g. `model_not_found`, `fixture_not_found`. */
  code?: string;
  /** Overrides the style's status for this kind. */
  status?: number;
  headers?: Record<string, string>;
  /** Replaces the rendered envelope entirely (scenario `body:`). */
  body?: unknown;
  /** Seconds a client should wait, rendered as retry-after and the style's own hints. */
  retryAfterSeconds?: number;
  /** Live rate-limit figures for the style's rate-limit headers. */
  rateLimit?: RateLimitInfo;
}

export interface RateLimitInfo {
  unit: 'requests' | 'tokens';
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

export function invalid(message: string, param?: string, code?: string): MockError {
  return new MockError('invalid_request', message, { param, code });
}

/** What an envelope makes of an error: the whole HTTP answer. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type Envelope = (error: MockError) => ErrorAnswer;
