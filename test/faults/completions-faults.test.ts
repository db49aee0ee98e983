// The faults the legacy completions door takes (SPEC 21: truncated, content_filter, empty,
// wrong_language) through openai-node's completions.create, whole and streamed.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';

let server: TestServer;
let sessions = 0;
const client = (scenario?: string) =>
  new OpenAI({
    baseURL: `${server.url}/v1`,
    apiKey: 'sk',
    maxRetries: 0,
    defaultHeaders: { 'x-mock-session': `completions-faults-${sessions++}`, ...(scenario && { 'x-mock-scenario': scenario }) },
  });

const asked = { model: 'gpt-3.5-turbo-instruct', prompt: 'Write a few sentences about the weather in Paris.', max_tokens: 200 };

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: shippedScenarioFiles() });
});
afterAll(() => server.close());

async function whole(scenario?: string) {
  const answer = await client(scenario).completions.create(asked);
  return { text: answer.choices[0]!.text, finish: answer.choices[0]!.finish_reason, usage: answer.usage! };
}

async function streamed(scenario: string) {
  let text = '';
  let finish: string | null = null;
  for await (const chunk of await client(scenario).completions.create({ ...asked, stream: true })) {
    for (const choice of chunk.choices) {
      text += choice.text;
      finish = choice.finish_reason ?? finish;
    }
  }
  return { text, finish };
}

describe('semantic faults on the legacy completions door', () => {
  it('truncated: text cut mid-sentence with finish_reason length, the stream joining to it', async () => {
    const plain = await whole();
    const cut = await whole('truncated');
    expect(cut.finish).toBe('length');
    expect(cut.text.length).toBeGreaterThan(0);
    expect(cut.text.length).toBeLessThan(plain.text.length);
    expect(cut.text).not.toMatch(/[.!?]$/);
    expect(cut.usage.completion_tokens).toBeGreaterThan(0);
    expect(await streamed('truncated')).toEqual({ text: cut.text, finish: 'length' });
  });

  it('content_filter and empty: no text, the filter stop or a normal one', async () => {
    expect(await whole('content_filter')).toMatchObject({ text: '', finish: 'content_filter', usage: { completion_tokens: 0 } });
    expect(await streamed('content_filter')).toEqual({ text: '', finish: 'content_filter' });
    expect(await whole('empty')).toMatchObject({ text: '', finish: 'stop', usage: { completion_tokens: 0 } });
    expect(await streamed('empty')).toEqual({ text: '', finish: 'stop' });
  });

  it('wrong_language: the answer in the language the step picks, the stream joining to it', async () => {
    await server.writeScenario('spanish.yaml', 'scenarios:\n  - name: spanish\n    steps: [ { fault: wrong_language, language: es } ]\n');
    const answer = await whole('spanish');
    expect(answer.finish).toBe('stop');
    expect(answer.text).toMatch(/\b(el|la|los|las|de|que|es|para)\b/);
    expect(await streamed('spanish')).toEqual({ text: answer.text, finish: 'stop' });
  });

  it('a chat-only fault leaves the completion as it was and the journal says not applicable', async () => {
    const session = 'completions-not-applicable';
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk', maxRetries: 0, defaultHeaders: { 'x-mock-scenario': 'refusal', 'x-mock-session': session } });
    const answer = await openai.completions.create(asked);
    expect(answer.choices[0]!.text.length).toBeGreaterThan(0);
    const journal = (await (await server.admin(`/requests?session=${session}`)).json()) as { requests: Array<{ fault: string }> };
    expect(journal.requests[0]!.fault).toBe('refusal (not applicable)');
  });
});
