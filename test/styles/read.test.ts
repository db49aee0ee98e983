// Each style reads its own answers back into the neutral reply: what its encoder writes, whole and
// streamed, reads back as the reply it was built from; and real-shaped samples (WIRE.md) read too.
import { describe, expect, it } from 'vitest';
import type { RecordedReply } from '../../src/conversation/recorded.js';
import { chunkText } from '../../src/conversation/token-chunks.js';
import type { Reply, ReplyChoice } from '../../src/conversation/types.js';
import { chatCompletions } from '../../src/styles/chat-completions/index.js';
import { generateContent } from '../../src/styles/generate-content/index.js';
import { messages } from '../../src/styles/messages/index.js';
import { responses } from '../../src/styles/responses/index.js';
import type { ChatStyle, StyleInput } from '../../src/styles/style.js';

const noStore = { storedTurns: () => undefined };

/** A streamed request in each style that asks to see the reasoning and to get usage. */
const INPUTS: Array<[ChatStyle, StyleInput]> = [
  [chatCompletions, { body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true }, reasoning_effort: 'low' }, query: {}, headers: {}, params: {} }],
  [responses, { body: { model: 'gpt-5', input: 'hi', stream: true, reasoning: { effort: 'low', summary: 'auto' } }, query: {}, headers: {}, params: {} }],
  [messages, { body: { model: 'claude-sonnet-4-5', max_tokens: 4096, stream: true, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'hi' }] }, query: {}, headers: {}, params: {} }],
  [generateContent, { body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } } }, query: { alt: 'sse' }, headers: {}, params: { model: 'gemini-2.5-flash' } }],
];

function choice(overrides: Partial<ReplyChoice>): ReplyChoice {
  const text = overrides.text ?? '';
  const reasoning = overrides.reasoning;
  return {
    text,
    toolCalls: [],
    images: [],
    finishReason: 'stop',
    textChunks: chunkText(text, 'word'),
    reasoningChunks: reasoning ? chunkText(reasoning, 'word') : [],
    ...overrides,
  };
}

function reply(c: ReplyChoice): Reply {
  const usage = { inputTokens: 12, outputTokens: 9, reasoningTokens: c.reasoning ? 5 : 0, cachedTokens: 0 };
  return { id: 'abc123', model: 'm', createdMs: 0, choices: [c], usage, pacing: { firstChunkMs: 0, chunkMs: 0 } };
}

const REPLIES: Record<string, Reply> = {
  'text with reasoning': reply(choice({ text: 'Sunny in Paris, 21 degrees.', reasoning: 'The user wants the weather.' })),
  'two tool calls': reply(
    choice({
      finishReason: 'tool_calls',
      toolCalls: [
        { id: 'a1', name: 'get_weather', arguments: { city: 'Paris', days: [1, 2], unit: { celsius: true } } },
        { id: 'a2', name: 'ping', arguments: {} },
      ],
    }),
  ),
  'cut by the limit': reply(choice({ text: 'A long story that stops', finishReason: 'length' })),
};

/** What the reply says, as every style can say it back: billed output includes the reasoning. */
function expected(built: Reply, streamed: boolean): RecordedReply {
  const c = built.choices[0]!;
  return {
    text: c.text,
    ...(streamed ? { chunks: [...c.textChunks] } : {}),
    ...(c.reasoning ? { reasoning: c.reasoning } : {}),
    toolCalls: c.toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args })),
    finishReason: c.finishReason,
    usage: { inputTokens: built.usage.inputTokens, outputTokens: built.usage.outputTokens + built.usage.reasoningTokens },
  };
}

describe.each(INPUTS)('%s reads back what it writes', (style, input) => {
  const request = style.decode(input, noStore);
  it.each(Object.entries(REPLIES))('%s', (_name, built) => {
    expect(style.read({ body: style.encode(built, { ...request, stream: false }) })).toEqual(expected(built, false));
    const events = style.events(built, request).map(({ event, data }) => ({ event: event ?? null, data }));
    expect(style.read({ events })).toEqual(expected(built, true));
  });
});

const sse = (...data: unknown[]) => data.map((d) => ({ event: null, data: d }));
const named = (...data: Array<Record<string, unknown>>) => data.map((d) => ({ event: String(d.type), data: d }));

describe('real-shaped answers (WIRE.md)', () => {
  it('chat-completions: a tool call streamed in fragments, the usage chunk, [DONE]', () => {
    const base = { id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 1, model: 'm', obfuscation: 'q1' };
    const delta = (d: unknown, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta: d, logprobs: null, finish_reason: finish }], usage: null });
    const events = sse(
      delta({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"city"' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: ':"Paris"}' } }] }),
      delta({}, 'tool_calls'),
      { ...base, choices: [], usage: { prompt_tokens: 16, completion_tokens: 30, total_tokens: 46 } },
      '[DONE]',
    );
    expect(chatCompletions.read({ events })).toEqual({
      text: '',
      chunks: [],
      toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
      finishReason: 'tool_calls',
      usage: { inputTokens: 16, outputTokens: 30 },
    });
  });

  it('chat-completions: DeepSeek-style reasoning_content in a whole body', () => {
    const body = {
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi', reasoning_content: 'greet', refusal: null }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 16, completion_tokens: 3, total_tokens: 19 },
    };
    expect(chatCompletions.read({ body })).toEqual({ text: 'Hi', reasoning: 'greet', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 16, outputTokens: 3 } });
  });

  it('responses: a function call streamed without its name on the done event, then response.completed', () => {
    const events = named(
      { type: 'response.created', sequence_number: 0, response: { status: 'in_progress', output: [] } },
      { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { id: 'fc_1', type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_1', name: 'calculator' } },
      { type: 'response.function_call_arguments.delta', sequence_number: 2, item_id: 'fc_1', output_index: 0, delta: '{"a"' },
      { type: 'response.function_call_arguments.delta', sequence_number: 3, item_id: 'fc_1', output_index: 0, delta: ':12}' },
      { type: 'response.function_call_arguments.done', sequence_number: 4, item_id: 'fc_1', output_index: 0, arguments: '{"a":12}' },
      { type: 'response.completed', sequence_number: 5, response: { status: 'completed', usage: { input_tokens: 299, output_tokens: 12, output_tokens_details: { reasoning_tokens: 0 } } } },
    );
    expect(responses.read({ events })).toEqual({
      text: '',
      chunks: [],
      toolCalls: [{ name: 'calculator', arguments: { a: 12 } }],
      finishReason: 'tool_calls',
      usage: { inputTokens: 299, outputTokens: 12 },
    });
  });

  it('messages: pings anywhere, a thinking block, text, a tool with its JSON in one piece', () => {
    const events = named(
      { type: 'message_start', message: { id: 'msg_1', content: [], usage: { input_tokens: 12, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'ping' },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EvQB' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: "I'll check." } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } },
      { type: 'ping' },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city": "Paris"}' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 12, output_tokens: 48 } },
      { type: 'message_stop' },
    );
    expect(messages.read({ events })).toEqual({
      text: "I'll check.",
      chunks: ["I'll check."],
      reasoning: 'Let me',
      toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
      finishReason: 'tool_calls',
      usage: { inputTokens: 12, outputTokens: 48 },
    });
  });

  it('generate-content: thought parts, signed parts and a function call in a whole body', () => {
    const body = {
      candidates: [
        {
          index: 0,
          finishReason: 'STOP',
          content: {
            role: 'model',
            parts: [
              { text: 'plan…', thought: true },
              { text: "There are 3 r's.", thoughtSignature: 'Eq' },
              { functionCall: { name: 'weather', args: { location: 'SF' } }, thoughtSignature: 'Eq' },
            ],
          },
        },
      ],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 28, totalTokenCount: 281, thoughtsTokenCount: 244 },
    };
    expect(generateContent.read({ body })).toEqual({
      text: "There are 3 r's.",
      reasoning: 'plan…',
      toolCalls: [{ name: 'weather', arguments: { location: 'SF' } }],
      finishReason: 'tool_calls',
      usage: { inputTokens: 9, outputTokens: 272 },
    });
  });

  it('generate-content: a stream whose usage is a running total, finishReason on the last chunk only', () => {
    const events = sse(
      { candidates: [{ content: { parts: [{ text: 'There are **3**' }], role: 'model' }, index: 0 }], usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 10, thoughtsTokenCount: 256 } },
      { candidates: [{ content: { parts: [{ text: " r's." }], role: 'model' }, finishReason: 'MAX_TOKENS', index: 0 }], usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 29, thoughtsTokenCount: 256 } },
    );
    expect(generateContent.read({ events })).toEqual({
      text: "There are **3** r's.",
      chunks: ['There are **3**', " r's."],
      toolCalls: [],
      finishReason: 'length',
      usage: { inputTokens: 9, outputTokens: 285 },
    });
  });

  it('answers of another shape read as an empty reply, never a crash', () => {
    for (const style of [chatCompletions, responses, messages, generateContent]) {
      expect(style.read({ body: 'not json' }).toolCalls).toEqual([]);
      expect(style.read({ events: sse('[DONE]', null, 42, { choices: 'x', candidates: 7, delta: null }) }).text).toBe('');
    }
  });
});
