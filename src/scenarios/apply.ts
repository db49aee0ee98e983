// The scenario step for a request, decided as data: every operation asks here once it knows what
// the request is about (its match subject), before it decides a reply. Nothing here sleeps or
// writes: an error (with the wait before it), a fault or pass-through headers come back for the
// shell to perform.
import type { Envelope, MockError } from '../conversation/errors.js';
import type { SemanticFault } from '../conversation/faults.js';
import type { Fault } from '../conversation/plan.js';
import type { MatchSubject } from '../conversation/subject.js';
import { countTokens } from '../conversation/tokens.js';
import type { LimitSpec, ScenarioSpec } from '../config/schema.js';
import type { Compiled } from '../config/types.js';
import type { Session } from '../state/session.js';
import { chooseScenario, type ScenarioSources } from './choose.js';
import { faultOf, stepError, TIMEOUT_MS } from './outcome.js';
import { chargeOutput, consume, rateLimitHeaders, retryAfterSeconds } from './rate-window.js';
import { stepAt, type Step } from './steps.js';

export interface ScenarioContext {
  sources: ScenarioSources;
  scenarios: ReadonlyMap<string, Compiled<ScenarioSpec>>;
  session: Session;
  nowMs: number;
  /** The route's envelope, which spells the live rate-limit headers of a request that passes. */
  envelope: Envelope;
}

export interface ScenarioDecision {
  /** The scenario the request ran under and the index of its step (null past the last one). */
  scenario?: { name: string; step: number | null };
  /** Headers for the answer (a stateful rate limit's live figures). */
  headers?: Record<string, string>;
  /** The error to answer with, after `waitMs`. */
  error?: MockError;
  waitMs?: number;
  /** A transport fault, which the writer performs on the answer. */
  fault?: Fault;
  /** A semantic fault, which the reply carries where it applies (SPEC 21). */
  misbehave?: SemanticFault;
  /** The window a stateful limit let the request in by, charged the answer's output tokens once known. */
  window?: LimitWindow;
}

export interface LimitWindow {
  key: string;
  limit: LimitSpec;
}

/** Counts the request in the scenario and returns its step; synchronous, so parallel requests never share one. */
export function takeStep(session: Session, scenario: Compiled<ScenarioSpec>): { step: Step; index: number } {
  const n = session.scenarioCounters.get(scenario.name) ?? 0;
  session.scenarioCounters.set(scenario.name, n + 1);
  return stepAt(scenario.spec.steps, scenario.spec.cycle ?? false, n);
}

/**
 * `inputTokens` prices the request for the token budgets of `limit` steps; without it the
 * subject's prompt (the last user text) is counted.
 */
export function decideScenario(context: ScenarioContext, subject: MatchSubject, inputTokens?: () => number): ScenarioDecision {
  const chosen = chooseScenario(context.sources, context.scenarios);
  if (!chosen?.matcher.test(subject)) return {};
  const { step, index } = takeStep(context.session, chosen);
  const scenario = { name: chosen.name, step: index < chosen.spec.steps.length ? index : null };
  if ('pass' in step) return { scenario };
  if ('fault' in step && step.fault !== undefined) return { scenario, ...faultOf(step) };
  if (step.limit) {
    const key = `${chosen.name}#${index}`;
    const limit = step.limit;
    const tokens = limit.tokens ?? limit.input_tokens;
    const cost = tokens === undefined ? 0 : (inputTokens?.() ?? countTokens(subject.lastUser));
    const verdict = consume(context.session.rateWindows.get(key), limit, cost, context.nowMs);
    context.session.rateWindows.set(key, verdict.window);
    if (!verdict.overdrawn) return { scenario, headers: rateLimitHeaders(context.envelope, verdict.info), window: { key, limit } };
    const quota = { ...verdict.overdrawn, model: subject.model, windowMs: limit.window_ms };
    return { scenario, error: stepError(step.error, step, { info: verdict.info, quota, retryAfterSeconds: retryAfterSeconds(verdict.info) }) };
  }
  // An error waits `delay_ms` first (a timeout 10 s unless told).
  const waitMs = step.delay_ms ?? (step.error === 'timeout' ? TIMEOUT_MS : 0);
  return { scenario, error: stepError(step.error, step), waitMs };
}

/** Charges an answer's output tokens to the limit's window that let its request in. */
export function chargeAnswer(session: Session, window: LimitWindow, outputTokens: number, nowMs: number): void {
  const charged = chargeOutput(session.rateWindows.get(window.key), window.limit, outputTokens, nowMs);
  if (charged) session.rateWindows.set(window.key, charged);
}

