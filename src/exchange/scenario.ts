// The scenario step of an exchange: the sources that may name a scenario, read from the plain
// request, and the decision noted for the journal.
import type { Envelope } from '../conversation/errors.js';
import type { MatchSubject } from '../conversation/subject.js';
import { decideScenario, type ScenarioDecision } from '../scenarios/apply.js';
import type { Exchange, Notes } from './exchange.js';
import type { Mock } from './mock.js';

export function scenarioStep(
  mock: Mock,
  exchange: Exchange,
  envelope: Envelope,
  subject: MatchSubject,
  notes: Notes,
  headers: Record<string, string>,
  inputTokens?: () => number,
): ScenarioDecision {
  const sources = {
    header: exchange.headers['x-mock-scenario'] || undefined,
    query: exchange.query.mock_scenario || undefined,
    key: exchange.caller.scenario,
    session: exchange.session.scenario,
    global: mock.sessions.globalScenario,
  };
  const context = { sources, scenarios: mock.store.current.scenarios, session: exchange.session, nowMs: mock.clock.now(), envelope };
  notes.subject = subject;
  const decision = decideScenario(context, subject, inputTokens);
  if (decision.scenario) {
    notes.scenario = decision.scenario.name;
    notes.scenarioStep = decision.scenario.step;
  }
  notes.fault = decision.error?.kind ?? decision.fault?.kind ?? null;
  Object.assign(headers, decision.headers);
  return decision;
}
