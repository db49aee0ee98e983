// Bad `mcp:` declarations are load problems at file:line:col (SPEC 22), and a reload that brings
// one keeps the last good tool servers serving.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startTestServer } from '../helpers/server.js';
import { WEATHER } from './weather.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function problemsOf(files: Record<string, string>): string[] {
  const root = mkdtempSync(join(tmpdir(), 'mgm-tools-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return loadConfig({ fixturesDirs: [root], scenariosDirs: [] }).problems.map((p) => `${p.file.split('/').pop()}:${p.line}:${p.col} ${p.message}`);
}

describe('mcp: declarations', () => {
  it('refuses a schema that is not JSON Schema, at its place', () => {
    const [problem] = problemsOf({ 'tools.yaml': 'mcp:\n  - server: weather\n    tools:\n      - name: get_forecast\n        input: { type: object, properties: { city: { type: strng } } }\n' });
    expect(problem).toMatch(/^tools\.yaml:5:\d+ mcp\[0\]\.tools\[0\]\.input: not a JSON Schema/);
  });

  it('refuses a structured reply that breaks the output schema, and content alone where there is one', () => {
    const problems = problemsOf({
      'tools.yaml': `mcp:
  - server: weather
    tools:
      - name: get_forecast
        output: { type: object, properties: { temp_c: { type: number } } }
        replies:
          - structured: { temp_c: warm }
`,
      'more.yaml': `mcp:
  - server: tides
    tools:
      - name: get_tide
        output: { type: object, properties: { height_m: { type: number } } }
        replies:
          - content: [ { type: text, text: "2 m" } ]
`,
    });
    expect(problems).toEqual([
      expect.stringMatching(/^more\.yaml:7:\d+ mcp\[0\]\.tools\[0\]\.replies\[0\]: the tool "get_tide" has an `output` schema/),
      expect.stringMatching(/^tools\.yaml:7:\d+ mcp\[0\]\.tools\[0\]\.replies\[0\]\.structured: does not fit the tool's output schema: structured\.temp_c must be number/),
    ]);
  });

  it('refuses a server declared twice, naming the first file', () => {
    const problems = problemsOf({ 'a.yaml': WEATHER, 'b.yaml': WEATHER });
    expect(problems).toEqual([expect.stringMatching(/^b\.yaml:3:\d+ mcp\[0\]\.server: the MCP server "weather" is declared twice \(first in .*a\.yaml\)/)]);
  });

  it('refuses a reply key a tool does not take', () => {
    const [problem] = problemsOf({ 'tools.yaml': 'mcp:\n  - server: weather\n    tools:\n      - name: get_forecast\n        replies:\n          - match: { tool: other }\n            content: []\n' });
    expect(problem).toMatch(/^tools\.yaml:6:\d+ .*tool/);
  });

  it('names every bad tool of a server in one load, not only the first', () => {
    const problems = problemsOf({
      'tools.yaml': `mcp:
  - server: weather
    tools:
      - name: get_forecast
        input: { type: object, properties: { city: { type: strng } } }
      - name: get_alerts
        input: { type: string }
      - name: get_forecast
`,
    });
    expect(problems).toEqual([
      expect.stringMatching(/^tools\.yaml:5:\d+ mcp\[0\]\.tools\[0\]\.input: not a JSON Schema/),
      expect.stringMatching(/^tools\.yaml:7:\d+ mcp\[0\]\.tools\[1\]\.input\.type: a tool's input schema has `type: object`/),
      expect.stringMatching(/^tools\.yaml:8:\d+ mcp\[0\]\.tools\[2\]\.name: the tool "get_forecast" is declared twice/),
    ]);
  });

  it('refuses a fixture that matches a tool call, which it could never answer', () => {
    const problems = problemsOf({ 'chat.yaml': 'chat:\n  - name: forecast\n    match: { tool: get_forecast }\n    reply: { text: sunny }\n' });
    expect(problems).toEqual([expect.stringMatching(/^chat\.yaml:3:\d+ chat\[0\]\.match\.tool: a fixture never answers a tool call/)]);
  });

  it('keeps the last good servers serving when a reload brings a bad one', async () => {
    const server = await startTestServer({ fixtureFiles: { 'weather.yaml': WEATHER } });
    try {
      await server.writeFixture('weather.yaml', WEATHER.replace('type: number', 'type: nummber'));
      const client = new Client({ name: 'tools-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/weather`)));
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['get_forecast', 'get_alerts']);
      await client.close();
    } finally {
      await server.close();
    }
  });
});
