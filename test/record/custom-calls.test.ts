// A freeform (custom) tool's call recorded and replayed: one mock plays the gateway answering
// apply_patch with raw text, a second records through the openai SDK (responses and
// chat-completions, whole and streamed), a third replays the recordings alone and must answer the
// same custom call with the same input, as the readback of a journal entry pins it.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PATCH = '*** Begin Patch\n*** Add File: hello.txt\n+hi {{name}}\n*** End Patch';

const UPSTREAM_FIXTURES = `
chat:
  - name: patch
    match: { contains: "apply the patch" }
    reply: { literal: true, tool_calls: [ { name: apply_patch, input: ${JSON.stringify(PATCH)} } ] }
`;

const ASKS = ['whole responses', 'streamed responses', 'whole chat', 'streamed chat'].map((how) => `Please apply the patch (${how}).`);

const responseTools = [{ type: 'custom' as const, name: 'apply_patch', description: 'Edits files.' }];
const chatTools = [{ type: 'custom' as const, custom: { name: 'apply_patch', description: 'Edits files.' } }];

let upstream: TestServer;
let recorder: TestServer;
let recordDir: string;

const openai = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test', maxRetries: 0 });

beforeAll(async () => {
  upstream = await startTestServer({ fixtureFiles: { 'up.yaml': UPSTREAM_FIXTURES } });
  recordDir = mkdtempSync(join(tmpdir(), 'mgm-custom-recording-'));
  recorder = await startTestServer({ upstream: upstream.url, record: recordDir });
});
afterAll(async () => {
  await recorder?.close();
  await upstream?.close();
  rmSync(recordDir, { recursive: true, force: true });
});

/** The tool calls of a fixture file's one entry. */
function fixtureCalls(yaml: string): unknown {
  return (parse(yaml) as { chat: Array<{ reply: { tool_calls?: unknown } }> }).chat[0]!.reply.tool_calls;
}

interface Call {
  name: string;
  input: string;
}

/** The custom calls of each ask, in the order of ASKS, through the SDK as a client reads them. */
async function customCalls(url: string): Promise<Call[]> {
  const client = openai(url);
  const whole = await client.responses.create({ model: 'gpt-5.5', input: ASKS[0]!, tools: responseTools });
  const streamed = await client.responses.create({ model: 'gpt-5.5', input: ASKS[1]!, tools: responseTools, stream: true });
  let done: Call | undefined;
  for await (const event of streamed) if (event.type === 'response.output_item.done' && event.item.type === 'custom_tool_call') done = event.item;
  const chat = await client.chat.completions.create({ model: 'gpt-5.5', messages: [{ role: 'user', content: ASKS[2]! }], tools: chatTools });
  const chatStream = await client.chat.completions.create({ model: 'gpt-5.5', messages: [{ role: 'user', content: ASKS[3]! }], tools: chatTools, stream: true });
  let chatStreamed: Call | undefined;
  for await (const chunk of chatStream) {
    const call = chunk.choices[0]?.delta.tool_calls?.[0] as { custom?: Call } | undefined;
    if (call?.custom) chatStreamed = call.custom;
  }
  const item = whole.output.find((entry) => entry.type === 'custom_tool_call');
  const chatCall = chat.choices[0]!.message.tool_calls?.[0];
  return [item, done, chatCall?.type === 'custom' ? chatCall.custom : undefined, chatStreamed].map((call) => ({ name: call?.name ?? '', input: call?.input ?? '' }));
}

describe('a custom tool call through the recorder', () => {
  it('is recorded with its input and replayed as the same custom call, in both styles, whole and streamed', async () => {
    const expected = ASKS.map(() => ({ name: 'apply_patch', input: PATCH }));
    expect(await customCalls(recorder.url)).toEqual(expected);
    await expect.poll(() => readdirSync(recordDir).length, { timeout: 5000 }).toBe(ASKS.length);
    for (const file of readdirSync(recordDir)) expect(fixtureCalls(readFileSync(join(recordDir, file), 'utf8'))).toEqual([{ name: 'apply_patch', input: PATCH }]);

    const replayer = await startTestServer({ fixtures: recordDir });
    try {
      expect(await customCalls(replayer.url)).toEqual(expected);
      const { requests } = (await (await replayer.admin('/requests')).json()) as { requests: Array<{ source: string }> };
      expect(requests.map(({ source }) => source)).toEqual(ASKS.map(() => expect.stringMatching(/^fixture:(responses|chat-completions)-gpt-5.5-/)));
    } finally {
      await replayer.close();
    }
  });

  it('is kept in the fixture a journal entry reads back', async () => {
    await openai(upstream.url).responses.create({ model: 'gpt-5.5', input: ASKS[0]!, tools: responseTools });
    const { requests } = (await (await upstream.admin('/requests?limit=1')).json()) as { requests: Array<{ id: string }> };
    const yaml = await (await upstream.admin(`/requests/${requests[0]!.id}/fixture`)).text();
    expect(fixtureCalls(yaml)).toEqual([{ name: 'apply_patch', input: PATCH }]);
  });
});
