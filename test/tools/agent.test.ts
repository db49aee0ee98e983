// End to end (SPEC 22): an OpenAI Agents SDK agent whose model is the mock and whose tool server
// is the mock's fake MCP server at /mcp/weather runs its loop, and `verify` holds chat → tool → chat.
import { Agent, MCPServerStreamableHttp, OpenAIResponsesModel, run, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { WEATHER } from './weather.js';

// The SDK would otherwise export traces to OpenAI's servers.
setTracingDisabled(true);

const CHAT = `
chat:
  - name: forecast-call
    match: { tools: [get_forecast], pattern: "weather in (?<city>[A-Za-z]+)" }
    reply:
      tool_calls:
        - name: get_forecast
          arguments: { city: "{{city}}" }
  - name: forecast-answer
    match: { tools: [get_forecast], conversation: "12 °C and rain" }
    priority: 1
    reply: { text: "Take an umbrella: 12 °C and rain in Paris." }
`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'weather.yaml': WEATHER, 'chat.yaml': CHAT } });
});
afterAll(() => server.close());

it('runs model → tool → model, and verify holds the sequence', async () => {
  const weather = new MCPServerStreamableHttp({ url: `${server.url}/mcp/weather`, name: 'weather', requestInit: { headers: { 'x-mock-session': 'agent' } } });
  await weather.connect();
  try {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-session': 'agent' } });
    const agent = new Agent({ name: 'Forecaster', instructions: 'Use the weather tools.', model: new OpenAIResponsesModel(client, 'gpt-4.1'), mcpServers: [weather] });
    const result = await run(agent, 'What is the weather in Paris?');
    expect(result.finalOutput).toBe('Take an umbrella: 12 °C and rain in Paris.');
  } finally {
    await weather.close();
  }
  const sequence = [
    { style: 'responses', fixture: 'forecast-call' },
    { tool: 'weather/get_forecast', args: { city: 'Paris' } },
    { style: 'responses', tool_result: 'get_forecast', fixture: 'forecast-answer' },
  ];
  const verdict = await server.admin('/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: 'agent', expect: [{ sequence }, { requests: { tool: 'weather/get_forecast' }, count: 1 }] }) });
  expect(await verdict.json()).toMatchObject({ ok: true });
  const wrong = await server.admin('/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: 'agent', expect: [{ requests: { tool: 'weather/get_forecast', args: { city: 'Oslo' } } }] }) });
  expect(await wrong.json()).toMatchObject({ ok: false });
});
