// The README's promise: "a 429 on the third call of my agent loop, then a stream cut on the
// fourth" in a few lines of YAML. The YAML is read from docs/scenarios.md, so the docs show exactly
// what this test runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { SHIPPED_SCENARIOS_DIR } from '../helpers/shipped.js';

const docs = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'scenarios.md'), 'utf8');
const INCIDENT = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((yaml) => yaml.includes('agent_loop_incident'))!;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: { 'incident.yaml': INCIDENT } });
});
afterAll(() => server.close());

describe('reproducing an incident', () => {
  it('is the scenario the repo ships under the same name', () => {
    const shipped = parse(readFileSync(join(SHIPPED_SCENARIOS_DIR, 'sequences.yaml'), 'utf8')) as { scenarios: Array<{ name: string }> };
    expect(shipped.scenarios.find((s) => s.name === 'agent_loop_incident')).toEqual(parse(INCIDENT).scenarios[0]);
  });

  it('the agent loop sees two answers, a 429 on call 3, a stream cut on call 4, then answers again', async () => {
    const client = new OpenAI({
      baseURL: `${server.url}/v1`,
      apiKey: 'sk-anything',
      maxRetries: 0,
      defaultHeaders: { 'x-mock-scenario': 'agent_loop_incident', 'x-mock-session': 'incident-1' },
    });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Plan a trip to Lisbon, step by step.' }];
    const outcomes: string[] = [];
    for (let call = 1; call <= 5; call++) {
      let text = '';
      let chunks = 0;
      try {
        for await (const chunk of await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true })) {
          const delta = chunk.choices[0]?.delta.content;
          if (delta) {
            text += delta;
            chunks++;
          }
        }
        messages.push({ role: 'assistant', content: text }, { role: 'user', content: 'Go on.' });
        outcomes.push('ok');
      } catch (error) {
        outcomes.push(error instanceof OpenAI.RateLimitError ? '429' : `broken after ${chunks} chunks`);
      }
    }
    expect(outcomes).toEqual(['ok', 'ok', '429', 'broken after 3 chunks', 'ok']);
    const { requests } = (await (await server.admin('/requests?session=incident-1')).json()) as { requests: Array<{ status: number }> };
    expect(requests.map((e) => e.status)).toEqual([200, 200, 429, 200, 200]);
  });
});
