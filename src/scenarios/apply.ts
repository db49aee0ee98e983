// The scenario step for a request: every handler asks here once it knows what the request is
// about (its match subject), before it decides a reply. An error step throws; a fault step comes
// back for the writer to perform.
import type { Context } from 'koa';
import { MockError } from '../conversation/errors.js';
import type { Fault, StreamEvent } from '../conversation/plan.js';
import type { MatchSubject } from '../conversation/subject.js';
import { countTokens } from '../conversation/tokens.js';
import type { ScenarioSpec } from '../config/schema.js';
import type { Compiled } from '../config/types.js';
import type { Mock, MockState } from '../server/context.js';
import { waitForClient } from '../server/writer.js';
import type { Session } from '../state/session.js';
import { chooseScenario, type ScenarioSources } from './choose.js';
import { faultOf, stepError, TIMEOUT_MS } from './outcome.js';
import { consume, rateLimitHeaders, retryAfterSeconds } from './rate-window.js';
import { stepAt, type Step } from './steps.js';

/** A fault as a scenario states it, before a style spells its in-stream error. */
export type FaultSpec = Exclude<Fault, { kind: 'stream_error' }> | { kind: 'stream_error'; afterChunks: number; error: MockError };

export interface ScenarioOutcome {
  fault?: FaultSpec;
}

function sourcesOf(mock: Mock, ctx: Context, state: MockState): ScenarioSources {
  const query = ctx.query.mock_scenario;
  return {
    header: ctx.get('x-mock-scenario') || undefined,
    query: typeof query === 'string' ? query : undefined,
    key: state.keyScenario,
    session: state.session.scenario,
    global: mock.sessions.globalScenario,
  };
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
export async function applyScenario(
  mock: Mock,
  ctx: Context,
  subject: MatchSubject,
  inputTokens?: () => number,
): Promise<ScenarioOutcome> {
  const state = ctx.state as MockState;
  const scenario = chooseScenario(sourcesOf(mock, ctx, state), mock.store.current.scenarios);
  if (!scenario?.matcher.test(subject)) return {};
  state.notes.scenario = scenario.name;
  const { step, index } = takeStep(state.session, scenario);
  if ('pass' in step) return {};
  if ('fault' in step) return { fault: faultOf(step) };
  if (step.limit) {
    const key = `${scenario.name}#${index}`;
    const cost = step.limit.tokens !== undefined ? (inputTokens?.() ?? countTokens(subject.lastUser)) : 1;
    const verdict = consume(state.session.rateWindows.get(key), step.limit, cost, mock.clock.now());
    state.session.rateWindows.set(key, verdict.window);
    if (verdict.allowed) {
      ctx.set(rateLimitHeaders(state.envelope, verdict.info));
      return {};
    }
    throw stepError(step.error, step, { info: verdict.info, retryAfterSeconds: retryAfterSeconds(verdict.info) });
  }
  // An error waits `delay_ms` first (a timeout 10 s unless told); a client that leaves meanwhile
  // gets nothing and is journaled as gone.
  const wait = step.delay_ms ?? (step.error === 'timeout' ? TIMEOUT_MS : 0);
  if (wait > 0) await waitForClient(ctx, wait);
  throw stepError(step.error, step);
}

/** The writer's fault: a `stream_error` gets the style's own error events. */
export function toFault(spec: FaultSpec | undefined, streamError: (error: MockError) => StreamEvent[]): Fault | undefined {
  if (spec?.kind !== 'stream_error') return spec;
  return { kind: 'stream_error', afterChunks: spec.afterChunks, events: streamError(spec.error) };
}
