// The fake MCP servers over streamable HTTP, driven by the official MCP SDK's client (SPEC 22).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { WEATHER } from './weather.js';

let server: TestServer;
const clients: Client[] = [];

async function connect(name = 'weather', headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'tools-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/${name}`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

beforeEach(async () => {
  // Keys are configured: the tool servers take none.
  server = await startTestServer({ fixtureFiles: { 'weather.yaml': WEATHER, 'keys.yaml': 'keys: [ { key: sk-only } ]\n' } });
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await server.close();
});

describe('a fake MCP server over streamable HTTP', () => {
  it('lists exactly the declared tools with their schemas', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['get_forecast', 'get_alerts']);
    expect(tools[0]).toMatchObject({ description: 'Forecast for a city.', inputSchema: { required: ['city'] }, outputSchema: { properties: { temp_c: { type: 'number' } } } });
    expect(tools[1]!.outputSchema).toBeUndefined();
  });

  it('answers a matching reply, an error reply, and checks arguments against the input schema', async () => {
    const client = await connect();
    const paris = (await client.callTool({ name: 'get_forecast', arguments: { city: 'Paris' } })) as CallToolResult;
    expect(paris.structuredContent).toEqual({ temp_c: 12, sky: 'rain' });
    expect(text(paris)).toBe('12 °C and rain');
    const atlantis = (await client.callTool({ name: 'get_forecast', arguments: { city: 'Atlantis' } })) as CallToolResult;
    expect(atlantis).toMatchObject({ isError: true, content: [{ type: 'text', text: 'No such city.' }] });
    const bad = (await client.callTool({ name: 'get_forecast', arguments: { city: 7 } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('arguments.city must be string');
    const missing = (await client.callTool({ name: 'get_forecast', arguments: {} })) as CallToolResult;
    expect(text(missing)).toContain('arguments.city is required');
  });

  it('generates a seeded result from the output schema when no reply matches', async () => {
    const client = await connect();
    const first = (await client.callTool({ name: 'get_forecast', arguments: { city: 'Oslo' } })) as CallToolResult;
    const again = (await client.callTool({ name: 'get_forecast', arguments: { city: 'Oslo' } })) as CallToolResult;
    expect(typeof (first.structuredContent as { temp_c: unknown }).temp_c).toBe('number');
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(JSON.parse(text(first))).toEqual(first.structuredContent);
    const alerts = (await client.callTool({ name: 'get_alerts', arguments: { region: 'south' } })) as CallToolResult;
    expect(text(alerts).length).toBeGreaterThan(0);
    expect(alerts.structuredContent).toBeUndefined();
  });

  it('is a closed world: an undeclared tool is an error', async () => {
    const client = await connect();
    await expect(client.callTool({ name: 'get_tides', arguments: {} })).rejects.toThrow(/Unknown tool 'get_tides'.*get_forecast, get_alerts/);
  });

  it('serves its resources', async () => {
    const client = await connect();
    expect((await client.listResources()).resources).toEqual([{ uri: 'file:///readme.md', name: 'file:///readme.md' }]);
    expect((await client.readResource({ uri: 'file:///readme.md' })).contents).toEqual([{ uri: 'file:///readme.md', text: 'Weather for the agent.' }]);
  });

  it('journals each tool call in the session of its x-mock-session header, and nothing else of the transport', async () => {
    const client = await connect('weather', { 'x-mock-session': 'agent-1' });
    await client.listTools();
    await client.callTool({ name: 'get_forecast', arguments: { city: 'Paris' } });
    const { requests } = (await (await server.admin('/requests?session=agent-1')).json()) as { requests: Array<Record<string, unknown>> };
    expect(requests).toHaveLength(1);
    const [entry] = requests;
    expect(entry).toMatchObject({ style: 'mcp', path: '/mcp/weather', session: 'agent-1', status: 200, source: 'fixture:weather/get_forecast#0' });
    const full = (await (await server.admin(`/requests/${entry!.id as string}`)).json()) as { mcp: unknown };
    expect(full.mcp).toEqual({ server: 'weather', tool: 'get_forecast', arguments: { city: 'Paris' }, result: { content: [{ type: 'text', text: '12 °C and rain' }], structuredContent: { temp_c: 12, sky: 'rain' } }, is_error: false });
  });

  it('answers an unknown server with a 404 naming the servers, and allows the MCP headers on a preflight', async () => {
    const response = await fetch(`${server.url}/mcp/tides`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('/mcp/weather');
    const preflight = await fetch(`${server.url}/mcp/weather`, { method: 'OPTIONS', headers: { origin: 'http://app.test', 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-session-id');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
  });

  it('tells connected clients when a reload changes the tools', async () => {
    const client = await connect();
    const changed = vi.fn();
    client.setNotificationHandler(ToolListChangedNotificationSchema, changed);
    await client.listTools();
    await server.writeFixture('weather.yaml', WEATHER.replace('Forecast for a city.', 'Forecast for any city.'));
    await vi.waitUntil(() => changed.mock.calls.length > 0, { timeout: 10_000, interval: 10 });
    expect((await client.listTools()).tools[0]!.description).toBe('Forecast for any city.');
  });
});
