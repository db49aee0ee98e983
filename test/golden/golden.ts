// Golden transcripts: a fixture, a request, and the exact bytes the mock must answer with.
// The clock is fixed and the seed set, so ids and timestamps are the same on every run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';

export const GOLDEN_FIXTURES = `
chat:
  - name: golden
    match: { contains: "golden" }
    reply:
      text: "Fixed text, exact bytes."
  - name: golden-tool
    match: { contains: "forecast" }
    reply:
      text: "Checking."
      tool_calls:
        - name: get_weather
          arguments: { city: Oslo }
`;

export function startGoldenServer(): Promise<TestServer> {
  return startTestServer({ fixtureFiles: { 'golden.yaml': GOLDEN_FIXTURES }, clock: '2026-01-01T00:00:00Z', seed: 7 });
}

export function transcript(name: string): string {
  return readFileSync(join(import.meta.dirname, 'transcripts', name), 'utf8');
}
