// The repo's own scenario files, to load beside a test's own into a test server.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHIPPED_SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));

export function shippedScenarioFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(SHIPPED_SCENARIOS_DIR)) {
    if (name.endsWith('.yaml')) files[`shipped/${name}`] = readFileSync(SHIPPED_SCENARIOS_DIR + name, 'utf8');
  }
  return files;
}
