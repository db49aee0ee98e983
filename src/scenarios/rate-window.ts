// Stateful rate limits: a fixed window per scenario step and session, on the mock clock, holding
// one or several budgets (requests, input tokens, output tokens, tokens). A request that fits
// every budget is counted and passes; one that would overdraw any is refused without being
// counted, and learns which budget, and exactly when the window rolls over. Output tokens are
// charged once the answer is known (`chargeOutput`).
import { MockError, type Envelope, type RateBudget, type RateLimitInfo } from '../conversation/errors.js';
import type { LimitSpec } from '../config/schema.js';
import type { RateWindow } from '../state/session.js';

const BUDGETS: readonly RateBudget[] = ['requests', 'input_tokens', 'output_tokens', 'tokens'];

export interface Overdrawn {
  budget: RateBudget;
  limit: number;
  used: number;
  asked: number;
}

export interface WindowVerdict {
  window: RateWindow;
  /** Each budget's figures after this request (before it, when refused). */
  info: RateLimitInfo[];
  /** The first budget the request would have overdrawn; absent, it passed. */
  overdrawn?: Overdrawn;
}

/** The budgets a limit names, in the order vendors list them. */
function budgetsOf(limit: LimitSpec): Array<[RateBudget, number]> {
  return BUDGETS.flatMap((budget) => (limit[budget] === undefined ? [] : [[budget, limit[budget]!] as [RateBudget, number]]));
}

/** What a request spends of a budget before its answer is known. */
function askedOf(budget: RateBudget, inputTokens: number): number {
  return budget === 'requests' ? 1 : budget === 'output_tokens' ? 0 : inputTokens;
}

function current(window: RateWindow | undefined, limit: LimitSpec, nowMs: number): RateWindow {
  return window && nowMs < window.startMs + limit.window_ms ? window : { startMs: nowMs, used: {} };
}

function figures(limit: LimitSpec, window: RateWindow, nowMs: number): RateLimitInfo[] {
  const resetAtMs = window.startMs + limit.window_ms;
  return budgetsOf(limit).map(([unit, budget]) => ({ unit, limit: budget, remaining: Math.max(0, budget - (window.used[unit] ?? 0)), resetMs: resetAtMs - nowMs, resetAtMs }));
}

/** `inputTokens`: what the request costs the input and total token budgets. */
export function consume(window: RateWindow | undefined, limit: LimitSpec, inputTokens: number, nowMs: number): WindowVerdict {
  const open = current(window, limit, nowMs);
  const budgets = budgetsOf(limit);
  for (const [budget, cap] of budgets) {
    const used = open.used[budget] ?? 0;
    const asked = askedOf(budget, inputTokens);
    // Output already spent past the budget refuses; the request's own output is not known yet.
    const over = budget === 'output_tokens' ? used >= cap : used + asked > cap;
    if (over) return { window: open, info: figures(limit, open, nowMs), overdrawn: { budget, limit: cap, used, asked } };
  }
  const used = { ...open.used };
  for (const [budget] of budgets) used[budget] = (used[budget] ?? 0) + askedOf(budget, inputTokens);
  const next = { startMs: open.startMs, used };
  return { window: next, info: figures(limit, next, nowMs) };
}

/** Charges an answer's output tokens to the window it was let in by, while that window lasts. */
export function chargeOutput(window: RateWindow | undefined, limit: LimitSpec, outputTokens: number, nowMs: number): RateWindow | undefined {
  if (!window || nowMs >= window.startMs + limit.window_ms) return window;
  const used = { ...window.used };
  for (const budget of ['output_tokens', 'tokens'] as const) if (limit[budget] !== undefined) used[budget] = (used[budget] ?? 0) + outputTokens;
  return { startMs: window.startMs, used };
}

/** Whole seconds until the window rolls over, rounded up so a client that waits them is let in. */
export function retryAfterSeconds(info: readonly RateLimitInfo[]): number {
  return Math.max(1, Math.ceil((info[0]?.resetMs ?? 0) / 1000));
}

/**
 * The live rate-limit headers of a request that passes, spelled by the route's own envelope (the
 * same names its 429 carries), so a style added later gets them without a change here.
 */
export function rateLimitHeaders(envelope: Envelope, info: readonly RateLimitInfo[]): Record<string, string> {
  return envelope(new MockError('rate_limit', '', { rateLimits: info })).headers;
}
