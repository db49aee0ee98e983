// Stateful rate limits: a fixed window per scenario step and session, on the mock clock. A
// request that fits the budget is counted and passes; one that does not is refused without being
// counted, and learns exactly when the window rolls over.
import { MockError, type Envelope, type RateLimitInfo } from '../conversation/errors.js';
import type { LimitSpec } from '../config/schema.js';
import type { RateWindow } from '../state/session.js';


export interface WindowVerdict {
  allowed: boolean;
  window: RateWindow;
  info: RateLimitInfo;
}

/** The schema makes sure a limit names exactly one of `requests` and `tokens`. */
function budgetOf(limit: LimitSpec): { unit: RateLimitInfo['unit']; budget: number } {
  return limit.tokens !== undefined ? { unit: 'tokens', budget: limit.tokens } : { unit: 'requests', budget: limit.requests ?? 0 };
}

/** `cost` is 1 for a request budget, the request's input tokens for a token budget. */
export function consume(window: RateWindow | undefined, limit: LimitSpec, cost: number, nowMs: number): WindowVerdict {
  const { unit, budget } = budgetOf(limit);
  const current = window && nowMs < window.startMs + limit.window_ms ? window : { startMs: nowMs, used: 0 };
  const allowed = current.used + cost <= budget;
  const next = allowed ? { startMs: current.startMs, used: current.used + cost } : current;
  const resetAtMs = next.startMs + limit.window_ms;
  return {
    allowed,
    window: next,
    info: { unit, limit: budget, remaining: Math.max(0, budget - next.used), resetMs: resetAtMs - nowMs, resetAtMs },
  };
}

/** Whole seconds until the window rolls over, rounded up so a client that waits them is let in. */
export function retryAfterSeconds(info: RateLimitInfo): number {
  return Math.max(1, Math.ceil(info.resetMs / 1000));
}

/**
 * The live rate-limit headers of a request that passes, spelled by the route's own envelope (the
 * same names its 429 carries), so a style added later gets them without a change here.
 */
export function rateLimitHeaders(envelope: Envelope, info: RateLimitInfo): Record<string, string> {
  return envelope(new MockError('rate_limit', '', { rateLimit: info })).headers;
}
