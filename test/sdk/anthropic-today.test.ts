// What today's @anthropic-ai/sdk sends and reads, through the SDK: system messages inside the
// conversation, toolsets without a name, the newer tool-result blocks, `max_tokens: 0`, every
// thinking type and display, and the answer fields its types declare.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/conversation/fingerprint.js';
import { decodeChatCompletions } from '../../src/styles/chat-completions/decode.js';
import { decodeMessages } from '../../src/styles/messages/decode.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const KEY = 'sk-ant-today';

const FIXTURES = `
keys:
  - key: ${KEY}
chat:
  - name: pirate
    match: { system: "speak like a pirate" }
    reply: { text: "Arr, the tide is high." }
  - name: refused
    match: { contains: "forbidden" }
    reply: { text: "", finish_reason: content_filter }
  - name: hello
    match: { contains: "hello" }
    reply: { text: "Hello back." }
`;

let server: TestServer;
let client: Anthropic;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES } });
  client = new Anthropic({ baseURL: server.url, apiKey: KEY, maxRetries: 0 });
});
afterAll(() => server.close());

const model = 'claude-sonnet-4-6';
const midSystem: Anthropic.MessageParam[] = [
  { role: 'user', content: 'What is the tide doing?' },
  { role: 'assistant', content: 'Rising.' },
  { role: 'system', content: [{ type: 'text', text: 'From now on, speak like a pirate.' }] },
  { role: 'user', content: 'And now?' },
];

describe('system messages inside the conversation', () => {
  it('join the system text the fixture key `system` reads, whole and streamed', async () => {
    const whole = await client.messages.create({ model, max_tokens: 100, messages: midSystem });
    expect(whole.content).toEqual([expect.objectContaining({ type: 'text', text: 'Arr, the tide is high.' })]);
    const streamed = await client.messages.stream({ model, max_tokens: 100, messages: midSystem }).finalMessage();
    expect(streamed.content[0]).toMatchObject({ text: 'Arr, the tide is high.' });
  });

  it('count in the input tokens, in count_tokens and in the usage alike', async () => {
    const without = midSystem.filter((m) => m.role !== 'system');
    const [withIt, withoutIt] = await Promise.all([client.messages.countTokens({ model, messages: midSystem }), client.messages.countTokens({ model, messages: without })]);
    expect(withIt.input_tokens).toBeGreaterThan(withoutIt.input_tokens);
    const message = await client.messages.create({ model, max_tokens: 100, messages: midSystem });
    expect(message.usage.input_tokens).toBe(withIt.input_tokens);
  });

  it('keep their place in the fingerprint, the same in the chat-completions form of the conversation', () => {
    const asMessages = (messages: unknown[]) => fingerprint(decodeMessages({ body: { model, max_tokens: 10, messages }, headers: {}, query: {}, params: {} }));
    const asChat = (messages: unknown[]) => fingerprint(decodeChatCompletions({ body: { model, messages }, headers: {}, query: {}, params: {} }));
    const chatForm = [
      { role: 'user', content: 'What is the tide doing?' },
      { role: 'assistant', content: 'Rising.' },
      { role: 'system', content: 'From now on, speak like a pirate.' },
      { role: 'user', content: 'And now?' },
    ];
    expect(asMessages(midSystem)).toBe(asChat(chatForm));
    const atTheTop = [midSystem[2]!, midSystem[0]!, midSystem[1]!, midSystem[3]!];
    expect(asMessages(atTheTop)).not.toBe(asMessages(midSystem));
  });

  it('refuse a non-text block in a system message and the withdrawn mid_conv_system block, naming the field', async () => {
    const image = { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } };
    const withImage = [{ role: 'system', content: [image] }, { role: 'user', content: 'hello' }] as unknown as Anthropic.MessageParam[];
    const withdrawn = [{ role: 'user', content: [{ type: 'mid_conv_system', text: 'Be brief.' }] }] as unknown as Anthropic.MessageParam[];
    for (const messages of [withImage, withdrawn]) {
      const error = await client.messages.create({ model, max_tokens: 10, messages }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect((error as InstanceType<typeof Anthropic.BadRequestError>).apiMessage).toMatch(/^messages\.\d\.content\.0/);
    }
  });
});

describe('tools and blocks of the current types', () => {
  it('takes toolsets without a name and tool_reference and browser_state blocks inside a tool_result', async () => {
    const tools = [
      { type: 'computer_toolset_20260801' },
      { type: 'browser_toolset_20260801' },
      { name: 'lookup', input_schema: { type: 'object' as const, properties: {} } },
    ] as Anthropic.ToolUnion[];
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [
              { type: 'tool_reference', tool_name: 'lookup' },
              { type: 'browser_state', tabs: [{ tab_id: 't1', title: 'Home', url: 'https://example.com' }] },
            ],
          },
        ],
      },
    ];
    const message = await client.messages.create({ model, max_tokens: 50, tools, messages });
    expect(message.type).toBe('message');
    const beta = await client.beta.messages.create({
      model,
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hello' }],
      mcp_servers: [{ type: 'url', name: 'docs', url: 'https://mcp.example.com/sse' }],
      tools: [{ type: 'mcp_toolset', mcp_server_name: 'docs' }],
      betas: ['mcp-client-2025-11-20'],
    });
    expect(beta.content[0]).toMatchObject({ text: 'Hello back.' });
  });

  it('answers max_tokens 0 with no content, stop_reason max_tokens and the usage, whole and streamed', async () => {
    const ask = { model, max_tokens: 0, messages: [{ role: 'user' as const, content: 'hello' }] };
    const whole = await client.messages.create(ask);
    const streamed = await client.messages.stream(ask).finalMessage();
    for (const message of [whole, streamed]) {
      expect(message.content).toEqual([]);
      expect(message.stop_reason).toBe('max_tokens');
      expect(message.usage.input_tokens).toBeGreaterThan(0);
      expect(message.usage.output_tokens).toBe(0);
    }
  });
});

describe('thinking', () => {
  const ask = (thinking: Anthropic.ThinkingConfigParam) => ({ model, max_tokens: 4000, thinking, messages: [{ role: 'user' as const, content: 'hello' }] });

  it('gives a thinking block for every type the SDK lists but disabled, and counts it in output_tokens_details', async () => {
    const kinds: Anthropic.ThinkingConfigParam[] = [{ type: 'enabled', budget_tokens: 1024 }, { type: 'adaptive' }, { type: 'between_tools' }];
    for (const thinking of kinds) {
      const message = await client.messages.create(ask(thinking));
      expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: expect.stringMatching(/\S/) });
      expect(message.usage.output_tokens_details?.thinking_tokens).toBeGreaterThan(0);
    }
    const off = await client.messages.create(ask({ type: 'disabled' }));
    expect(off.content.map((b) => b.type)).toEqual(['text']);
    expect(off.usage.output_tokens_details).toEqual({ thinking_tokens: 0 });
  });

  it('answers display "omitted" with signed thinking blocks of empty text, whole and streamed', async () => {
    const body = ask({ type: 'adaptive', display: 'omitted' });
    const whole = await client.messages.create(body);
    const streamed = await client.messages.stream(body).finalMessage();
    for (const message of [whole, streamed]) {
      expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: '', signature: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) });
      expect(message.content[1]).toMatchObject({ type: 'text', text: 'Hello back.' });
    }
  });
});

describe('answer fields the SDK types declare', () => {
  it('gives stop_details on a refusal, whole and streamed', async () => {
    const body = { model, max_tokens: 50, messages: [{ role: 'user' as const, content: 'something forbidden' }] };
    const whole = await client.messages.create(body);
    const streamed = await client.messages.stream(body).finalMessage();
    for (const message of [whole, streamed]) {
      expect(message.stop_reason).toBe('refusal');
      expect(message.stop_details).toEqual({ type: 'refusal', category: null, explanation: null });
    }
  });
});
