// `GET /__admin/scenarios`: the scenarios the loaded files define, each with what it does, and
// which is active where (the global one and each session's own), for the inspector's switches
// and the MCP tools.
import type { Mock } from '../mock.js';

export function listScenarios(mock: Mock): unknown {
  const scenarios = [...mock.store.current.scenarios.values()].sort((a, b) => a.name.localeCompare(b.name));
  return {
    scenarios: scenarios.map((s) => ({ name: s.name, description: s.spec.description ?? null })),
    global: mock.sessions.globalScenario ?? null,
    sessions: mock.sessions.all().map((session) => ({ session: session.id, scenario: session.scenario ?? null })),
  };
}
