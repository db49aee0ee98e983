// `model-gateway-mock mcp-serve SERVER --fixtures DIR`: a fake MCP server over stdio, driven by
// the official MCP SDK's client, as an agent that starts its tool servers as commands would.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMMAND as CLI, ensureBuilt } from '../helpers/built.js';
import { startTestServer } from '../helpers/server.js';
import { WEATHER } from './weather.js';

let root: string;
let fixtures: string;
let scenarios: string;

beforeAll(ensureBuilt, 300_000);
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mgm-stdio-'));
  fixtures = join(root, 'fixtures');
  scenarios = join(root, 'scenarios');
  mkdirSync(fixtures);
  mkdirSync(scenarios);
  writeFileSync(join(fixtures, 'weather.yaml'), WEATHER);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('serves the declared tools and their replies over stdio', async () => {
  const client = new Client({ name: 'tools-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [...CLI, 'mcp-serve', 'weather', '--fixtures', fixtures, '--scenarios', scenarios], stderr: 'pipe' }));
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['get_forecast', 'get_alerts']);
    const paris = (await client.callTool({ name: 'get_forecast', arguments: { city: 'Paris' } })) as CallToolResult;
    expect(paris.structuredContent).toEqual({ temp_c: 12, sky: 'rain' });
    const alerts = (await client.callTool({ name: 'get_alerts', arguments: { region: 'north' } })) as CallToolResult;
    expect(alerts.content).toEqual([{ type: 'text', text: 'Storm warning.' }]);
  } finally {
    await client.close();
  }
});

it('names the declared servers when asked for another', async () => {
  const run = promisify(execFile)(process.execPath, [...CLI, 'mcp-serve', 'tides', '--fixtures', fixtures, '--scenarios', scenarios]);
  await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('MCP servers: weather') });
});

it('with --url, passes the calls to a running mock, which answers and journals them in the session given', async () => {
  const server = await startTestServer({ fixtureFiles: { 'weather.yaml': WEATHER } });
  const client = new Client({ name: 'tools-test', version: '1.0.0' });
  try {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...CLI, 'mcp-serve', 'weather', '--url', server.url, '--session', 'stdio-agent'], stderr: 'pipe' }));
    const paris = (await client.callTool({ name: 'get_forecast', arguments: { city: 'Paris' } })) as CallToolResult;
    expect(paris.structuredContent).toEqual({ temp_c: 12, sky: 'rain' });
    const { requests } = (await (await server.admin('/requests?session=stdio-agent')).json()) as { requests: Array<Record<string, unknown>> };
    expect(requests).toEqual([expect.objectContaining({ style: 'mcp', path: '/mcp/weather', session: 'stdio-agent', mcp: expect.objectContaining({ server: 'weather', tool: 'get_forecast', arguments: { city: 'Paris' } }) })]);
    await server.assertVerified([{ requests: { tool: 'weather/get_forecast', args: { city: 'Paris' } }, count: 1 }], { session: 'stdio-agent' });
  } finally {
    await client.close();
    await server.close();
  }
});

it('with --url, answers a server the running mock does not declare with its reason', async () => {
  const server = await startTestServer({ fixtureFiles: { 'weather.yaml': WEATHER } });
  const client = new Client({ name: 'tools-test', version: '1.0.0' });
  try {
    const connecting = client.connect(new StdioClientTransport({ command: process.execPath, args: [...CLI, 'mcp-serve', 'tides', '--url', server.url], stderr: 'pipe' }));
    await expect(connecting).rejects.toThrow(/\/mcp\/tides: .*No MCP server .*tides.* is declared\. MCP servers: \/mcp\/weather/);
  } finally {
    await client.close();
    await server.close();
  }
});
