// `GET /__admin/scenarios`: the scenarios the loaded files define and which is active where
// (the global one and each session's own), for the inspector's switches.
import type { Mock } from '../mock.js';

export function listScenarios(mock: Mock): unknown {
  return {
    scenarios: [...mock.store.current.scenarios.keys()].sort(),
    global: mock.sessions.globalScenario ?? null,
    sessions: mock.sessions.all().map((session) => ({ session: session.id, scenario: session.scenario ?? null })),
  };
}
