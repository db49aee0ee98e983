// GET /__admin/faults lists every fault, verify counts a fault served (not one that did not
// apply), and a bad fault name or option is a load error naming the faults.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEMANTIC_FAULTS } from '../../src/conversation/faults.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: shippedScenarioFiles() });
});
afterAll(() => server.close());

const asked = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hello' }] };

describe('faults in the admin API', () => {
  it('lists every fault with its kind, styles and description', async () => {
    const { faults } = (await (await server.admin('/faults')).json()) as { faults: Array<{ name: string; kind: string; styles: string[]; description: string }> };
    expect(faults.filter((f) => f.kind === 'semantic').map((f) => f.name)).toEqual([...SEMANTIC_FAULTS]);
    expect(faults.find((f) => f.name === 'reset')).toMatchObject({ kind: 'transport' });
    expect(faults.find((f) => f.name === 'duplicate_tool_ids')!.styles).toEqual(['chat-completions', 'responses', 'messages', 'openrouter', 'azure-openai', 'bedrock']);
    expect(faults.find((f) => f.name === 'truncated')!.styles).toContain('completions');
    expect(faults.find((f) => f.name === 'content_filter')!.styles).not.toContain('ollama');
    expect(faults.find((f) => f.name === 'invalid_tool_json')!.styles).toEqual(['chat-completions', 'responses', 'messages', 'generate-content', 'openrouter', 'azure-openai', 'bedrock', 'vertex']);
  });

  it("verify's fault filter counts a fault that acted, not one that did not apply", async () => {
    const session = 'verify-faults';
    const openai = (scenario: string) =>
      new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', maxRetries: 0, defaultHeaders: { 'x-mock-session': session, 'x-mock-scenario': scenario } });
    await openai('refusal').chat.completions.create(asked);
    await openai('unknown_tool').chat.completions.create(asked);
    const verify = async (fault: string) => {
      const response = await server.admin(`/verify?session=${session}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ expect: [{ requests: { fault }, count: 1 }] }),
      });
      return (await response.json()) as { ok: boolean };
    };
    expect((await verify('refusal')).ok).toBe(true);
    expect((await verify('unknown_tool')).ok).toBe(false);
  });

  it('a bad fault name or option is a load error at file:line:col naming the faults', async () => {
    await server.writeScenario('bad.yaml', 'scenarios:\n  - name: bad\n    steps:\n      - { fault: refusals }\n');
    const { errors } = (await (await server.admin('/health')).json()) as { errors: Array<{ file: string; line: number; message: string }> };
    expect(errors[0]).toMatchObject({ file: expect.stringMatching(/bad\.yaml$/), line: 4 });
    expect(errors[0]!.message).toContain('"invalid_tool_json"');
    await server.writeScenario('bad.yaml', 'scenarios:\n  - name: bad\n    steps:\n      - { fault: refusal, violation: enum }\n');
    const again = JSON.stringify(await (await server.admin('/health')).json());
    expect(again).toContain('violation belongs to the schema_violation fault');
  });
});
