// `GET /__admin/sessions`: the sessions that hold state, and how much, so a caller that names an
// unknown one can be told the known ones.
import type { Mock } from '../mock.js';

export function listSessions(mock: Mock): unknown {
  return {
    sessions: mock.sessions.all().map((session) => ({
      id: session.id,
      requests: session.journal.length,
      fixtures: session.fixtures.length,
      tasks: session.tasks.size,
      scenario: session.scenario ?? null,
    })),
    global_scenario: mock.sessions.globalScenario ?? null,
  };
}
