// The OpenAI Agents SDK pointed at the mock: an agent with a function tool, on the Responses model
// and on the chat-completions model, in a two-turn conversation, whole and streamed, tracing off.
import { Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, run, setTracingDisabled, tool, user, type AgentInputItem, type Model } from '@openai/agents';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CLIENT_FIXTURES, WEATHER_RESULT } from './fixtures.js';

// The SDK would otherwise export traces to OpenAI's servers.
setTracingDisabled(true);

const MODELS: Array<[string, string, (client: OpenAI) => Model]> = [
  ['OpenAIResponsesModel', 'responses', (client) => new OpenAIResponsesModel(client, 'gpt-4.1')],
  ['OpenAIChatCompletionsModel', 'chat-completions', (client) => new OpenAIChatCompletionsModel(client, 'gpt-4.1')],
];

const cities: string[] = [];
const getWeather = tool({
  name: 'get_weather',
  description: 'The current weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => {
    cities.push(city);
    return WEATHER_RESULT;
  },
});

interface Turn {
  finalOutput: string | undefined;
  history: AgentInputItem[];
  text: string | undefined;
}

/** One run of the agent, whole or streamed; a streamed run also gives the text its deltas joined to. */
async function turn(agent: Agent, input: string | AgentInputItem[], streamed: boolean): Promise<Turn> {
  if (!streamed) {
    const result = await run(agent, input);
    return { finalOutput: result.finalOutput, history: result.history, text: undefined };
  }
  const result = await run(agent, input, { stream: true });
  let text = '';
  for await (const delta of result.toTextStream()) text += delta;
  await result.completed;
  return { finalOutput: result.finalOutput, history: result.history, text };
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': CLIENT_FIXTURES } });
});
afterAll(() => server.close());

describe.each(MODELS)('an agent on %s', (_name, style, modelOf) => {
  it.each([
    ['whole', false],
    ['streamed', true],
  ])('calls its tool and answers, then takes a second turn (%s)', async (_mode, streamed) => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const agent = new Agent({ name: 'Forecaster', instructions: 'Answer with the forecast tool.', model: modelOf(client), tools: [getWeather] });
    cities.length = 0;
    await server.admin('/requests', { method: 'DELETE' });

    const first = await turn(agent, 'What is the weather in Rome?', streamed);
    expect(cities).toEqual(['Rome']);
    expect(first.finalOutput).toBe('It is 21 degrees in Rome.');
    const second = await turn(agent, [...first.history, user('Thank you!')], streamed);
    expect(second.finalOutput).toBe('You are welcome.');
    if (streamed) expect([first.text, second.text]).toEqual(['It is 21 degrees in Rome.', 'You are welcome.']);

    // Three model calls: the tool call, the answer to its result, the second turn.
    const { requests } = (await (await server.admin('/requests')).json()) as { requests: Array<{ style: string; status: number }> };
    expect(requests.map((request) => [request.style, request.status])).toEqual(Array(3).fill([style, 200]));
  });
});
