// Scenarios on a fake MCP server's tools (SPEC 22): an error kind is a tool result with isError,
// malformed_result breaks the output schema the client checks, reset drops the connection; a
// scenario on a tool leaves model requests alone.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import OpenAI from 'openai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { WEATHER } from './weather.js';

const SCENARIOS = `
scenarios:
  - name: forecast-down
    match: { tool: weather/get_forecast }
    steps: [ { error: overloaded, times: 1 }, pass ]
  - name: forecast-malformed
    match: { tool: get_forecast }
    steps: [ { fault: malformed_result } ]
  - name: forecast-reset
    match: { tool: get_forecast }
    steps: [ { fault: reset } ]
`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'weather.yaml': WEATHER }, scenarioFiles: { 'tools.yaml': SCENARIOS } });
});
afterAll(() => server.close());

async function connect(scenario: string): Promise<Client> {
  const client = new Client({ name: 'tools-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/weather`), { requestInit: { headers: { 'x-mock-scenario': scenario, 'x-mock-session': scenario } } }));
  return client;
}

it('answers an error kind as a tool result naming it, then passes', async () => {
  const client = await connect('forecast-down');
  const failed = (await client.callTool({ name: 'get_forecast', arguments: { city: 'Paris' } })) as CallToolResult;
  expect(failed).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^overloaded: /) }] });
  const passed = (await client.callTool({ name: 'get_forecast', arguments: { city: 'Paris' } })) as CallToolResult;
  expect(passed.structuredContent).toEqual({ temp_c: 12, sky: 'rain' });
  await client.close();
  const { requests } = (await (await server.admin('/requests?session=forecast-down')).json()) as { requests: Array<{ source: string }> };
  expect(requests.map((r) => r.source)).toEqual(['scenario:forecast-down#0', 'fixture:weather/get_forecast#0']);
});

it('answers malformed_result with structured content the client refuses against the output schema', async () => {
  const client = await connect('forecast-malformed');
  // The client checks structured content against the output schema it listed.
  await client.listTools();
  await expect(client.callTool({ name: 'get_forecast', arguments: { city: 'Paris' } })).rejects.toThrow(/structured content does not match/i);
  await client.close();
});

it('drops the connection on reset', async () => {
  const client = await connect('forecast-reset');
  await expect(client.callTool({ name: 'get_forecast', arguments: { city: 'Paris' } })).rejects.toThrow();
  await client.close();
});

it('leaves model requests alone', async () => {
  const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0, defaultHeaders: { 'x-mock-scenario': 'forecast-down' } });
  const completion = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
  expect(completion.choices[0]!.message.content).toBeTruthy();
});
