// The scenario step of an exchange: the sources that may name a scenario, read from the plain
// request, and what the decision says for the journal, returned beside it.
import type { Envelope } from '../conversation/errors.js';
import type { MatchSubject } from '../conversation/subject.js';
import { decideScenario, type ScenarioDecision } from '../scenarios/apply.js';
import type { Exchange, Notes } from './exchange.js';
import type { Mock } from './mock.js';

export interface ScenarioStep {
  decision: ScenarioDecision;
  notes: Pick<Notes, 'scenario' | 'scenarioStep' | 'fault'>;
  /** Headers for the answer (a stateful rate limit's live figures). */
  headers: Record<string, string>;
}

export function scenarioStep(mock: Mock, exchange: Exchange, envelope: Envelope, subject: MatchSubject, inputTokens?: () => number): ScenarioStep {
  const sources = {
    header: exchange.headers['x-mock-scenario'] || undefined,
    query: exchange.query.mock_scenario || undefined,
    key: exchange.caller.scenario,
    session: exchange.session.scenario,
    global: mock.sessions.globalScenario,
  };
  const context = { sources, scenarios: mock.store.current.scenarios, session: exchange.session, nowMs: mock.clock.now(), envelope };
  const decision = decideScenario(context, subject, inputTokens);
  return {
    decision,
    notes: {
      scenario: decision.scenario?.name ?? null,
      scenarioStep: decision.scenario?.step ?? null,
      fault: decision.error?.kind ?? decision.fault?.kind ?? decision.misbehave?.name ?? null,
    },
    headers: decision.headers ?? {},
  };
}
