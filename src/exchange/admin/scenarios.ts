// `GET /__admin/scenarios`: the loaded scenarios by name, with what each one does, so a caller can
// pick one for `PUT /__admin/scenario` without reading the files.
import type { Mock } from '../mock.js';

export function listScenarios(mock: Mock): unknown {
  const scenarios = [...mock.store.current.scenarios.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { scenarios: scenarios.map((s) => ({ name: s.name, description: s.spec.description ?? null, file: s.file })) };
}
