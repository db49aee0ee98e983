// Semantic faults combined with the scenario steps that were there before them: `times`, a
// `cycle`, a sequence and per-session state, in one scenario file (SPEC 21: "usable with times,
// in sequences, per session").
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SCENARIOS = `scenarios:
  - name: flaky-tools
    cycle: true
    steps:
      - { fault: refusal, times: 1 }
      - { pass: true, times: 1 }
      - { error: rate_limit, times: 1 }
`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: { 'combo.yaml': SCENARIOS } });
});
afterAll(() => server.close());

const asked = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hello' }] };

function client(session: string): OpenAI {
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', maxRetries: 0, defaultHeaders: { 'x-mock-session': session, 'x-mock-scenario': 'flaky-tools' } });
}

/** What one request met: the refusal, a normal answer, or the step's error status. */
async function met(openai: OpenAI): Promise<string> {
  try {
    const completion = await openai.chat.completions.create(asked);
    return completion.choices[0]!.message.refusal !== null ? 'refusal' : 'answer';
  } catch (error) {
    return String((error as { status?: number }).status);
  }
}

describe('semantic faults among the other steps', () => {
  it('take their turn in a cycle with passes and errors, counted per session', async () => {
    const alpha = client('combo-alpha');
    const beta = client('combo-beta');
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) seen.push(await met(alpha));
    expect(seen).toEqual(['refusal', 'answer', '429', 'refusal']);
    // Another session starts the scenario at its first step.
    expect(await met(beta)).toBe('refusal');
  });
});
