// Waits on a fake MCP server's tools (SPEC 22): a `delay` step answers the call after its wait,
// a `timeout` step as a tool error naming it; each is journaled as the tool call it held, and
// counted in the metrics under the tool servers' style.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { WEATHER } from './weather.js';

const SCENARIOS = `
scenarios:
  - name: forecast-slow
    match: { tool: weather/get_forecast }
    steps: [ { fault: delay, delay_ms: 400, times: 1 } ]
  - name: forecast-timeout
    match: { tool: get_forecast }
    steps: [ { error: timeout, delay_ms: 50, times: 1 } ]
`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'weather.yaml': WEATHER }, scenarioFiles: { 'tools.yaml': SCENARIOS } });
});
afterAll(() => server.close());

async function call(scenario: string): Promise<CallToolResult> {
  const client = new Client({ name: 'waits-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/weather`), { requestInit: { headers: { 'x-mock-scenario': scenario, 'x-mock-session': scenario } } }));
  try {
    return (await client.callTool({ name: 'get_forecast', arguments: { city: 'Paris' } })) as CallToolResult;
  } finally {
    await client.close();
  }
}

async function journal(session: string) {
  return ((await (await server.admin(`/requests?session=${session}`)).json()) as { requests: Array<{ style: string; source: string; fault: string | null }> }).requests;
}

it('answers a delayed call with its reply, no sooner than the step says', async () => {
  const started = performance.now();
  const result = await call('forecast-slow');
  expect(performance.now() - started).toBeGreaterThanOrEqual(400);
  expect(result.structuredContent).toEqual({ temp_c: 12, sky: 'rain' });
  expect(await journal('forecast-slow')).toMatchObject([{ style: 'mcp', fault: 'delay', source: 'scenario:forecast-slow#0' }]);
});

it('answers a timeout step as a tool error naming it', async () => {
  const result = await call('forecast-timeout');
  expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^timeout: /) }] });
  expect(await journal('forecast-timeout')).toMatchObject([{ style: 'mcp', source: 'scenario:forecast-timeout#0' }]);
});

it('counts the tool calls in the metrics under the mcp style', async () => {
  const metrics = await (await server.admin('/metrics')).text();
  expect(metrics).toMatch(/style="mcp"/);
});
