// Which scenario a request runs under, first source that names one wins: the `x-mock-scenario`
// header, the `mock_scenario` query parameter (for browser code that cannot set headers), the
// key's `scenario`, the session's admin-set one, the global admin-set one.
import { failure, MockError } from '../conversation/errors.js';
import type { ScenarioSpec } from '../config/schema.js';
import type { Compiled } from '../config/types.js';

export interface ScenarioSources {
  header?: string;
  query?: string;
  key?: string;
  session?: string;
  global?: string;
}

const WHERE: Record<keyof ScenarioSources, string> = {
  header: 'the x-mock-scenario header',
  query: 'the mock_scenario query parameter',
  key: "the API key's scenario",
  session: "the session's scenario (set through /__admin/scenario)",
  global: 'the global scenario (set through /__admin/scenario)',
};

const ORDER = Object.keys(WHERE) as Array<keyof ScenarioSources>;

export function unknownScenario(name: string, where: string, known: Iterable<string>, param?: string): MockError {
  const names = [...known].sort();
  const list = names.length > 0 ? `Known scenarios: ${names.join(', ')}.` : 'No scenarios are loaded.';
  return failure('scenario_not_found', `Unknown scenario "${name}" named by ${where}. ${list}`, { param });
}

/** Undefined when no source names a scenario; a 400 naming it when the named one does not exist. */
export function chooseScenario(
  sources: ScenarioSources,
  scenarios: ReadonlyMap<string, Compiled<ScenarioSpec>>,
): Compiled<ScenarioSpec> | undefined {
  for (const source of ORDER) {
    const name = sources[source];
    if (!name) continue;
    const scenario = scenarios.get(name);
    if (!scenario) {
      const param = source === 'header' ? 'x-mock-scenario' : source === 'query' ? 'mock_scenario' : undefined;
      throw unknownScenario(name, WHERE[source], scenarios.keys(), param);
    }
    return scenario;
  }
  return undefined;
}
