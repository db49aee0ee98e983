// The scenario step for a request, decided as data: every operation asks here once it knows what
// the request is about (its match subject), before it decides a reply. Nothing here sleeps or
// writes: an error (with the wait before it), a fault or pass-through headers come back for the
// shell to perform.
import type { Envelope, MockError } from '../conversation/errors.js';
import type { Fault, StreamEvent } from '../conversation/plan.js';
import type { MatchSubject } from '../conversation/subject.js';
import { countTokens } from '../conversation/tokens.js';
import type { ScenarioSpec } from '../config/schema.js';
import type { Compiled } from '../config/types.js';
import type { Session } from '../state/session.js';
import { chooseScenario, type ScenarioSources } from './choose.js';
import { faultOf, stepError, TIMEOUT_MS, type FaultSpec } from './outcome.js';
import { consume, rateLimitHeaders, retryAfterSeconds } from './rate-window.js';
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
  fault?: FaultSpec;
}

/** Counts the request in the scenario and returns its step; synchronous, so parallel requests never share one. */
function takeStep(session: Session, scenario: Compiled<ScenarioSpec>): { step: Step; index: number } {
  const n = session.scenarioCounters.get(scenario.name) ?? 0;
  session.scenarioCounters.set(scenario.name, n + 1);
  return stepAt(scenario.spec.steps, scenario.spec.cycle ?? false, n);
}

/**
 * `inputTokens` prices the request for `limit: { tokens }` steps; without it the subject's prompt
 * (the last user text) is counted.
 */
export function decideScenario(context: ScenarioContext, subject: MatchSubject, inputTokens?: () => number): ScenarioDecision {
  const chosen = chooseScenario(context.sources, context.scenarios);
  if (!chosen?.matcher.test(subject)) return {};
  const { step, index } = takeStep(context.session, chosen);
  const scenario = { name: chosen.name, step: index < chosen.spec.steps.length ? index : null };
  if ('pass' in step) return { scenario };
  if ('fault' in step && step.fault !== undefined) return { scenario, fault: faultOf(step) };
  if (step.limit) {
    const key = `${chosen.name}#${index}`;
    const cost = step.limit.tokens !== undefined ? (inputTokens?.() ?? countTokens(subject.lastUser)) : 1;
    const verdict = consume(context.session.rateWindows.get(key), step.limit, cost, context.nowMs);
    context.session.rateWindows.set(key, verdict.window);
    if (verdict.allowed) return { scenario, headers: rateLimitHeaders(context.envelope, verdict.info) };
    return { scenario, error: stepError(step.error, step, { info: verdict.info, retryAfterSeconds: retryAfterSeconds(verdict.info) }) };
  }
  // An error waits `delay_ms` first (a timeout 10 s unless told).
  const waitMs = step.delay_ms ?? (step.error === 'timeout' ? TIMEOUT_MS : 0);
  return { scenario, error: stepError(step.error, step), waitMs };
}

/** The writer's fault: a `stream_error` gets the style's own error events. */
export function toFault(
  spec: FaultSpec | undefined,
  streamError: (error: MockError, cutAt: number) => StreamEvent[],
): Fault | undefined {
  if (spec?.kind !== 'stream_error') return spec;
  return { kind: 'stream_error', afterChunks: spec.afterChunks, events: (cutAt) => streamError(spec.error, cutAt) };
}
