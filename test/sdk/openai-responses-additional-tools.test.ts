// Tools declared in the input (`AdditionalToolsItemParam`, an `additional_tools` item), as Codex
// declares its own on its default model, through the openai SDK: they are the request's tools for
// matching and for the generator, beside any in `tools`, and a bad one is named where it sits.
import OpenAI, { BadRequestError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer({
    fixtureFiles: {
      'code-mode.yaml': `
chat:
  - name: code-mode
    match: { contains: "list the files", tools: [exec] }
    reply:
      tool_calls:
        - name: exec
          input: "ls"
`,
    },
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

const exec = { type: 'custom' as const, name: 'exec', description: 'Runs code.' };
const declaring = (tools: OpenAI.Responses.Tool[]): OpenAI.Responses.ResponseInputItem => ({ type: 'additional_tools', role: 'developer', tools });

describe('tools declared in an additional_tools input item', () => {
  it('match a fixture that names them, answered as the custom tool call', async () => {
    const response = await client.responses.create({ model: 'gpt-5.5', input: [declaring([exec]), { role: 'user', content: 'list the files' }] });
    expect(response.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', name: 'exec', input: 'ls' })]);
  });

  it('are what the generator calls when a call is required, beside the tools field', async () => {
    const weather = { type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: {} }, strict: false };
    const response = await client.responses.create({
      model: 'gpt-5.5',
      input: [declaring([exec]), { role: 'user', content: 'anything' }],
      tools: [weather],
      tool_choice: { type: 'custom', name: 'exec' },
    });
    expect(response.output.find((item) => item.type === 'custom_tool_call')).toMatchObject({ name: 'exec', input: expect.any(String) });
  });

  it('refuses a bad tool there, naming its place', async () => {
    const creating = client.responses.create({ model: 'gpt-5.5', input: [{ role: 'user', content: 'hi' }, declaring([{ type: 'function', name: '', parameters: {}, strict: false }])] });
    await expect(creating).rejects.toBeInstanceOf(BadRequestError);
    await expect(creating).rejects.toMatchObject({ param: expect.stringMatching(/^input\[1\]\.tools\[0\]/) });
  });
});
