// The repo's own fixture and scenario files, to load beside a test's own into a test server.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHIPPED_SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));
const SHIPPED_FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/', import.meta.url));

function yamlFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.yaml')) files[`shipped/${name}`] = readFileSync(dir + name, 'utf8');
  }
  return files;
}

export function shippedScenarioFiles(): Record<string, string> {
  return yamlFiles(SHIPPED_SCENARIOS_DIR);
}

export function shippedFixtureFiles(): Record<string, string> {
  return yamlFiles(SHIPPED_FIXTURES_DIR);
}
