// refusal and truncated in the provider styles (Ollama, OpenRouter, Azure OpenAI, Bedrock
// Converse) through their clients, whole and streamed; and a fault the catalogue does not list
// for a style leaving its answer as it was.
import { type BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { Ollama } from 'ollama';
import OpenAI, { AzureOpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedrockFor } from '../helpers/bedrock-client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';

let server: TestServer;
let sessions = 0;
const headers = (scenario: string, session = `provider-faults-${sessions++}`) => ({ 'x-mock-scenario': scenario, 'x-mock-session': session });
const question = 'Write a few sentences about the weather in Paris.';
const REFUSAL = /can't|not able/;

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: shippedScenarioFiles() });
});
afterAll(() => server.close());

async function journalFault(session: string): Promise<string> {
  const { requests } = (await (await server.admin(`/requests?session=${session}`)).json()) as { requests: Array<{ fault: string }> };
  return requests[0]!.fault;
}

describe('semantic faults in the provider styles', () => {
  it('ollama: a refusal in words, a cut answer with done_reason length; no filter stop', async () => {
    const ask = (scenario: string, session?: string) => new Ollama({ host: server.url, headers: headers(scenario, session) });
    const messages = [{ role: 'user', content: question }];
    for (const [scenario, reason] of [['refusal', 'stop'], ['truncated', 'length']] as const) {
      const whole = await ask(scenario).chat({ model: 'claude-sonnet-4-6', messages, stream: false });
      expect(whole.done_reason, scenario).toBe(reason);
      let joined = '';
      let last = '';
      for await (const part of await ask(scenario).chat({ model: 'claude-sonnet-4-6', messages, stream: true })) {
        joined += part.message.content;
        last = part.done_reason ?? last;
      }
      expect([joined, last], scenario).toEqual([whole.message.content, reason]);
    }
    expect((await ask('refusal').chat({ model: 'claude-sonnet-4-6', messages, stream: false })).message.content).toMatch(REFUSAL);
    const plain = await ask('content_filter', 'ollama-filter').chat({ model: 'claude-sonnet-4-6', messages, stream: false });
    expect(plain.message.content.length).toBeGreaterThan(0);
    expect(await journalFault('ollama-filter')).toBe('content_filter (not applicable)');
  });

  const openaiLike: Array<[string, (scenario: string) => OpenAI, string]> = [
    ['openrouter', (scenario) => new OpenAI({ baseURL: `${server.url}/api/v1`, apiKey: 'sk-or', maxRetries: 0, defaultHeaders: headers(scenario) }), 'openai/gpt-4o-mini'],
    [
      'azure-openai',
      (scenario) => new AzureOpenAI({ endpoint: server.url, apiKey: 'azure-key', apiVersion: '2024-10-21', deployment: 'gpt-4o-mini', maxRetries: 0, defaultHeaders: headers(scenario) }),
      'gpt-4o-mini',
    ],
  ];
  for (const [style, client, model] of openaiLike) {
    it(`${style}: message.refusal with content null; finish_reason length; streamed joins to whole`, async () => {
      const body = { model, messages: [{ role: 'user' as const, content: question }] };
      const refused = (await client('refusal').chat.completions.create(body)).choices[0]!;
      expect(refused.message).toMatchObject({ content: null, refusal: expect.stringMatching(REFUSAL) });
      const final = await client('refusal').chat.completions.stream({ ...body, stream: true }).finalChatCompletion();
      expect(final.choices[0]!.message.refusal).toBe(refused.message.refusal);
      const cut = (await client('truncated').chat.completions.create(body)).choices[0]!;
      expect(cut.finish_reason).toBe('length');
      const joined = await client('truncated').chat.completions.stream({ ...body, stream: true }).finalChatCompletion();
      expect([joined.choices[0]!.message.content, joined.choices[0]!.finish_reason]).toEqual([cut.message.content, 'length']);
    });
  }

  it('bedrock: a refusal is content_filtered, a cut answer max_tokens; ConverseStream joins to Converse', async () => {
    const clients: BedrockRuntimeClient[] = [];
    const bedrock = (scenario: string) => {
      const made = bedrockFor(server.url, headers(scenario));
      clients.push(made);
      return made;
    };
    const ask = { modelId: 'anthropic.claude-sonnet-4-6-v1:0', messages: [{ role: 'user' as const, content: [{ text: question }] }] };
    try {
      for (const [scenario, reason] of [['refusal', 'content_filtered'], ['truncated', 'max_tokens']] as const) {
        const whole = await bedrock(scenario).send(new ConverseCommand(ask));
        expect(whole.stopReason, scenario).toBe(reason);
        let joined = '';
        let stop: string | undefined;
        const { stream } = await bedrock(scenario).send(new ConverseStreamCommand(ask));
        for await (const event of stream!) {
          joined += event.contentBlockDelta?.delta?.text ?? '';
          stop = event.messageStop?.stopReason ?? stop;
        }
        expect([joined, stop], scenario).toEqual([whole.output!.message!.content!.map((block) => block.text ?? '').join(''), reason]);
      }
    } finally {
      for (const made of clients) made.destroy();
    }
  });
});
