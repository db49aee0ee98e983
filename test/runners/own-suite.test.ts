// The project's own suite through its vitest plugin: the global setup (vitest.config.ts) started
// one mock on the repository's fixtures, and each test here has its own session of it.
import OpenAI from 'openai';
import { describe, expect, test } from '../../src/vitest.js';

const client = (gateway: { url: string; headers: Record<string, string> }) =>
  new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'test', defaultHeaders: gateway.headers, maxRetries: 0 });

describe.concurrent('the vitest plugin, in this repository', () => {
  test('answers the shipped greeting fixture and verifies it in this test alone', async ({ gateway }) => {
    const reply = await client(gateway).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    expect(reply.choices[0]!.message.content).toContain('model-gateway-mock');
    await gateway.assertVerified([{ requests: { path: '/v1/chat/completions', source: 'fixture:' }, count: 1 }, { no_generated: true }]);
  });

  test('a second test starts with an empty journal of its own', async ({ gateway }) => {
    expect(await gateway.journal()).toEqual([]);
    await client(gateway).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'tell me something unexpected' }] });
    const result = await gateway.verify([{ no_generated: true }]);
    expect(result.ok).toBe(false);
    expect(result.results[0]!.message).toMatch(/generat/);
  });
});
