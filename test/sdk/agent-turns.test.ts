// An agent's turns matched by what it sends (SPEC 20): `turn` counts the user's own messages (one
// that only returns tool results, an agent's `<system-reminder>` beside them, is none), `after_tool`
// the tool whose result the last turn returns, `called` the tools called so far in order. The same
// session through each official SDK is answered by the same fixtures, and a near miss names the key.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
  - name: read-first
    match: { turn: 1 }
    reply:
      tool_calls: [{ name: read_file, arguments: { path: notes.txt } }]
  - name: then-write
    match: { turn: 1, after_tool: read_file }
    priority: 1
    reply:
      tool_calls: [{ name: write_file, arguments: { path: notes.txt, text: fixed } }]
  - name: done
    match: { after_tool: write_file, called: [read_file, write_file] }
    priority: 2
    reply: { text: "Fixed notes.txt." }
  - name: second-question
    match: { turn: 2, called: [write_file, read_file] }
    reply: { text: "never: write_file came after read_file" }
`;

const PROMPT = 'Fix the typo in notes.txt';
const parameters = { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } } };
const TOOLS = ['read_file', 'write_file'];

/** A call made and its result, in the order of the session. */
type Step = { name: string; args: Record<string, unknown>; result: string };

interface Answer {
  text: string;
  calls: string[];
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'agent.yaml': FIXTURES } });
});
afterAll(() => server.close());

async function viaChatCompletions(steps: Step[], later: string[] = []): Promise<Answer> {
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 });
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: 'You edit files.' }, { role: 'user', content: PROMPT }];
  steps.forEach((step, i) => {
    messages.push(
      { role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: step.name, arguments: JSON.stringify(step.args) } }] },
      { role: 'tool', tool_call_id: `call_${i}`, content: step.result },
    );
  });
  for (const text of later) messages.push({ role: 'assistant', content: 'ok' }, { role: 'user', content: text });
  const completion = await client.chat.completions.create({
    model: 'gpt-4.1',
    messages,
    tools: TOOLS.map((name) => ({ type: 'function' as const, function: { name, parameters } })),
  });
  const message = completion.choices[0]!.message;
  return { text: message.content ?? '', calls: (message.tool_calls ?? []).map((c) => (c.type === 'function' ? c.function.name : c.custom.name)) };
}

async function viaResponses(steps: Step[], later: string[] = []): Promise<Answer> {
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 });
  const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: PROMPT }];
  steps.forEach((step, i) => {
    input.push(
      { type: 'function_call', call_id: `call_${i}`, name: step.name, arguments: JSON.stringify(step.args) },
      { type: 'function_call_output', call_id: `call_${i}`, output: step.result },
    );
  });
  for (const text of later) input.push({ role: 'assistant', content: 'ok' }, { role: 'user', content: text });
  const response = await client.responses.create({
    model: 'gpt-4.1',
    input,
    tools: TOOLS.map((name) => ({ type: 'function' as const, name, parameters, strict: false })),
  });
  return { text: response.output_text, calls: response.output.flatMap((item) => (item.type === 'function_call' ? [item.name] : [])) };
}

async function viaMessages(steps: Step[], later: string[] = []): Promise<Answer> {
  const client = new Anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: PROMPT }];
  steps.forEach((step, i) => {
    messages.push(
      { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: step.name, input: step.args }] },
      // Claude Code puts its reminders beside the results: still no turn of the user's.
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: `toolu_${i}`, content: step.result },
          { type: 'text', text: '<system-reminder>\nThe date is 2026-11-29.\n</system-reminder>' },
        ],
      },
    );
  });
  for (const text of later) messages.push({ role: 'assistant', content: 'ok' }, { role: 'user', content: text });
  const message = await client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    messages,
    tools: TOOLS.map((name) => ({ name, input_schema: parameters as Anthropic.Tool.InputSchema })),
  });
  return {
    text: message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
    calls: message.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : [])),
  };
}

async function viaGenerateContent(steps: Step[], later: string[] = []): Promise<Answer> {
  const client = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: server.url } });
  const contents: Array<{ role: string; parts: object[] }> = [{ role: 'user', parts: [{ text: PROMPT }] }];
  for (const step of steps) {
    contents.push({ role: 'model', parts: [{ functionCall: { name: step.name, args: step.args } }] }, { role: 'user', parts: [{ functionResponse: { name: step.name, response: { output: step.result } } }] });
  }
  for (const text of later) contents.push({ role: 'model', parts: [{ text: 'ok' }] }, { role: 'user', parts: [{ text }] });
  const response = await client.models.generateContent({
    model: 'gemini-2.5-flash',
    contents,
    config: { tools: [{ functionDeclarations: TOOLS.map((name) => ({ name, parametersJsonSchema: parameters })) }] },
  });
  const parts = response.candidates![0]!.content!.parts!;
  return { text: parts.flatMap((p) => (p.text && !p.thought ? [p.text] : [])).join(''), calls: parts.flatMap((p) => (p.functionCall ? [p.functionCall.name!] : [])) };
}

const STYLES = [
  ['chat-completions', viaChatCompletions],
  ['responses', viaResponses],
  ['messages', viaMessages],
  ['generate-content', viaGenerateContent],
] as const;

const READ: Step = { name: 'read_file', args: { path: 'notes.txt' }, result: 'teh notes' };
const WRITE: Step = { name: 'write_file', args: { path: 'notes.txt', text: 'fixed' }, result: 'written' };

describe.each(STYLES)('an agent session through %s', (_style, send) => {
  it('is answered turn by turn by turn, after_tool and called', async () => {
    expect(await send([])).toMatchObject({ calls: ['read_file'] });
    expect(await send([READ])).toMatchObject({ calls: ['write_file'] });
    expect(await send([READ, WRITE])).toEqual({ text: 'Fixed notes.txt.', calls: [] });
  });

  it('does not take calls out of order as `called`, and counts a new user message as a turn', async () => {
    // Read after write: `done` wants read_file before write_file, and it is the last of them.
    const reversed = await send([WRITE, READ]);
    expect(reversed.calls).toEqual(['write_file']);
    const second = await send([READ, WRITE], ['And now?']);
    expect(second.text).not.toBe('never: write_file came after read_file');
    expect(second.text).not.toBe('Fixed notes.txt.');
  });
});

describe('the near miss of an agent turn', () => {
  it('names after_tool and called when the tools went another way', async () => {
    const only = await startTestServer({ fixtureFiles: { 'agent.yaml': FIXTURES.split('  - name: second-question')[0]!.replace(/  - name: read-first[\s\S]*?(?=  - name: done)/, '') } });
    try {
      const client = new OpenAI({ baseURL: `${only.url}/v1`, apiKey: 'k', maxRetries: 0, defaultHeaders: { 'x-mock-session': 'agent-miss' } });
      await client.chat.completions.create({
        model: 'gpt-4.1',
        messages: [
          { role: 'user', content: PROMPT },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'list_dir', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'notes.txt' },
        ],
      });
      const { requests } = (await (await only.admin('/requests?session=agent-miss')).json()) as { requests: Array<{ fixture: string | null; near_miss: { fixture: string; failed: string[] } | null }> };
      expect(requests[0]!.fixture).toBeNull();
      expect(requests[0]!.near_miss).toMatchObject({ fixture: 'done', failed: ['after_tool', 'called'] });
    } finally {
      await only.close();
    }
  });
});
