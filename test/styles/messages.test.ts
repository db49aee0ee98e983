// The messages style as pure functions: decoding every field (and refusing bad ones the vendor's
// way), the message object, and the event stream, joined by the vendor SDK's own accumulator.
import { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import { describe, expect, it } from 'vitest';
import { MockError } from '../../src/conversation/errors.js';
import type { StreamEvent } from '../../src/conversation/plan.js';
import { replySteps } from '../../src/conversation/reply.js';
import { finished } from '../../src/conversation/steps.js';
import { chunkText } from '../../src/conversation/token-chunks.js';
import type { ChatRequest, Reply, ReplyChoice } from '../../src/conversation/types.js';
import { decodeCountTokens, decodeMessages } from '../../src/styles/messages/decode.js';
import { encodeMessage, signatureOf } from '../../src/styles/messages/encode.js';
import { messagesEnvelope } from '../../src/styles/messages/envelope.js';
import { messageEvents, messagesStreamError } from '../../src/styles/messages/events.js';

const decode = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  decodeMessages({ body, headers, query: {}, params: {} });

const base = { model: 'claude-sonnet-4-5', max_tokens: 1024 };

function refusal(body: Record<string, unknown>): MockError {
  try {
    decode(body);
  } catch (error) {
    if (error instanceof MockError) return error;
    throw error;
  }
  throw new Error('decode accepted the body');
}

function choice(overrides: Partial<ReplyChoice>): ReplyChoice {
  const text = overrides.text ?? '';
  const reasoning = overrides.reasoning;
  return {
    text,
    reasoning,
    toolCalls: [],
    images: [],
    finishReason: 'stop',
    textChunks: chunkText(text, 'word'),
    reasoningChunks: reasoning ? chunkText(reasoning, 'word') : [],
    ...overrides,
  };
}

function reply(c: ReplyChoice, usage = { inputTokens: 12, outputTokens: 7, reasoningTokens: 0, cachedTokens: 0 }): Reply {
  return { id: 'abc123', model: 'claude-sonnet-4-5', createdMs: 0, choices: [c], usage, pacing: { firstChunkMs: 0, chunkMs: 0 } };
}

const thinkingRequest = decode({ ...base, max_tokens: 4096, stream: true, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'hi' }] });
const plainRequest = decode({ ...base, stream: true, messages: [{ role: 'user', content: 'hi' }] });

/** The events joined by the vendor SDK's own accumulator (its readable-stream form is one JSON per line). */
async function accumulate(events: StreamEvent[]) {
  const bytes = events.map((e) => JSON.stringify(e.data)).join('\n');
  const body = new Response(bytes).body!;
  const { parsed_output: _parsed, ...message } = await MessageStream.fromReadableStream(body).finalMessage();
  return message;
}

describe('messages decode', () => {
  it('maps system blocks, every content block kind and tool turns onto the neutral request', () => {
    const image = Buffer.from('png-bytes').toString('base64');
    const request = decode({
      ...base,
      system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Be kind.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: image } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'They want weather.', signature: 'c2ln' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_time', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '21 degrees' }] },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'noon', is_error: false },
            { type: 'text', text: 'Thanks' },
          ],
        },
      ],
    });
    expect(request.system).toBe('Be brief.\nBe kind.');
    expect(request.turns).toEqual([
      {
        role: 'user',
        parts: [
          { kind: 'text', text: 'Look:' },
          { kind: 'media', mimeType: 'image/png', data: image },
          { kind: 'media', mimeType: 'image/*', url: 'https://example.com/cat.jpg' },
          { kind: 'media', mimeType: 'application/pdf', data: 'JVBERi0=' },
        ],
      },
      {
        role: 'assistant',
        parts: [
          { kind: 'reasoning', text: 'They want weather.' },
          { kind: 'text', text: 'Checking.' },
          { kind: 'tool_call', id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } },
          { kind: 'tool_call', id: 'toolu_2', name: 'get_time', arguments: {} },
        ],
      },
      { role: 'tool', parts: [{ kind: 'tool_result', callId: 'toolu_1', name: 'get_weather', content: '21 degrees' }] },
      { role: 'tool', parts: [{ kind: 'tool_result', callId: 'toolu_2', name: 'get_time', content: 'noon' }] },
      { role: 'user', parts: [{ kind: 'text', text: 'Thanks' }] },
    ]);
  });

  it('reads tools, tool_choice, thinking, stop sequences and sampling fields', () => {
    const request = decode({
      ...base,
      max_tokens: 4096,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [
        { name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 2 },
      ],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      thinking: { type: 'enabled', budget_tokens: 2048 },
      stop_sequences: ['END'],
      temperature: 0.3,
      top_p: 0.9,
      top_k: 40,
      metadata: { user_id: 'u-1' },
      service_tier: 'auto',
      stream: true,
    });
    expect(request.style).toBe('messages');
    expect(request.system).toBe('You are terse.');
    expect(request.tools).toEqual([
      { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    ]);
    expect(request.toolChoice).toEqual({ mode: 'auto' });
    expect(request.reasoning).toEqual({ budgetTokens: 2048, visible: true });
    expect(request.maxOutputTokens).toBe(4096);
    expect(request.stopSequences).toEqual(['END']);
    expect(request.temperature).toBe(0.3);
    expect(request.stream).toBe(true);
  });

  it('maps tool_choice any to required and tool to the named tool; thinking disabled asks for nothing', () => {
    const tools = [{ name: 'f', input_schema: { type: 'object' } }];
    const messages = [{ role: 'user', content: 'hi' }];
    expect(decode({ ...base, messages, tools, tool_choice: { type: 'any' } }).toolChoice).toEqual({ mode: 'required' });
    expect(decode({ ...base, messages, tools, tool_choice: { type: 'tool', name: 'f' } }).toolChoice).toEqual({ mode: 'tool', name: 'f' });
    expect(decode({ ...base, messages, tools, tool_choice: { type: 'none' } }).toolChoice).toEqual({ mode: 'none' });
    expect(decode({ ...base, messages, thinking: { type: 'disabled' } }).reasoning).toBeUndefined();
  });

  it('takes output_config.format as a JSON schema for the text', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const request = decode({ ...base, messages: [{ role: 'user', content: 'hi' }], output_config: { format: { type: 'json_schema', schema } } });
    expect(request.responseFormat).toEqual({ type: 'json_schema', schema });
  });

  it('counts tokens without max_tokens, as the vendor does', () => {
    const request = decodeCountTokens({ body: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] }, headers: {}, query: {}, params: {} });
    expect(request.maxOutputTokens).toBeUndefined();
    expect(request.turns).toHaveLength(1);
  });

  it.each([
    [{ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] }, 'max_tokens: Field required', 'max_tokens'],
    [{ ...base, messages: [] }, 'messages: at least one message is required', 'messages'],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'video' }] }] }, 'messages.0.content.1.type:', 'messages[0].content[1].type'],
    [
      { ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'AA==' } }] }] },
      'messages.0.content.0.source.media_type:',
      'messages[0].content[0].source.media_type',
    ],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }, 'text content blocks must be non-empty', 'messages[0].content[0].text'],
    [{ ...base, messages: [{ role: 'user', content: '' }] }, 'all messages must have non-empty content', 'messages[0]'],
    [{ ...base, temperature: 1.5, messages: [{ role: 'user', content: 'hi' }] }, 'temperature:', 'temperature'],
    [{ ...base, max_tokens: -1, messages: [{ role: 'user', content: 'hi' }] }, 'max_tokens:', 'max_tokens'],
    [{ ...base, messages: [{ role: 'user', content: 'hi' }], thinking: { type: 'enabled', budget_tokens: 100 } }, 'thinking.budget_tokens:', 'thinking.budget_tokens'],
    [{ ...base, messages: [{ role: 'user', content: 'hi' }], thinking: { type: 'enabled', budget_tokens: 1024 } }, 'must be greater than `thinking.budget_tokens`', 'max_tokens'],
    [{ ...base, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'f' }] }, 'tools.0.input_schema: Field required', 'tools[0].input_schema'],
    [{ ...base, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'a b', input_schema: {} }] }, 'tools.0.name:', 'tools[0].name'],
    [{ ...base, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'f', input_schema: [] }] }, 'tools.0.input_schema: Invalid input: expected record, received array', 'tools[0].input_schema'],
    [
      { ...base, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: 'x' }] }] },
      'messages.1.content.0.input: Invalid input: expected record, received string',
      'messages[1].content[0].input',
    ],
    [{ ...base, messages: [{ role: 'user', content: 'hi' }], output_config: { format: { type: 'json_schema' } } }, 'output_config.format.schema: Field required', 'output_config.format.schema'],
    [{ ...base, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'f', input_schema: {} }, { name: 'f', input_schema: {} }] }, 'tools.1.name: Tool names must be unique.', 'tools[1].name'],
    [{ ...base, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'f', input_schema: {} }], tool_choice: { type: 'tool', name: 'g' } }, "Tool 'g' not found", 'tool_choice.name'],
    [
      { ...base, max_tokens: 4096, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'f', input_schema: {} }], tool_choice: { type: 'any' }, thinking: { type: 'enabled', budget_tokens: 1024 } },
      'Thinking may not be enabled when tool_choice forces tool use',
      'tool_choice',
    ],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] }] }, 'messages.0.content.0: `tool_use` blocks are only allowed in assistant messages', 'messages[0].content[0]'],
    [
      { ...base, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'r' }] }] },
      'unexpected `tool_use_id` found in `tool_result` blocks: toolu_x',
      'messages[0].content',
    ],
    [
      {
        ...base,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
          { role: 'user', content: 'no result' },
        ],
      },
      '`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1',
      'messages[2]',
    ],
    [
      { ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'file_1' } }] }] },
      'messages.0.content.0.source: file sources are not supported',
      'messages[0].content[0].source',
    ],
  ])('refuses a bad body with a 400 naming the field (%#)', (body, message, param) => {
    const error = refusal(body as Record<string, unknown>);
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toContain(message);
    expect(error.options.param).toBe(param);
    const rendered = messagesEnvelope(error, 'req_1');
    expect(rendered.status).toBe(400);
    expect(rendered.body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: error.message }, request_id: 'req_1' });
  });
});

describe('messages encode', () => {
  const call = { id: 'abc1230', name: 'get_weather', arguments: { city: 'Paris' } };

  it('orders thinking, text and tool_use blocks and bills the thinking as output', () => {
    const whole = reply(choice({ text: 'Let me check.', reasoning: 'Weather wanted.', toolCalls: [call], finishReason: 'tool_calls' }), {
      inputTokens: 20,
      outputTokens: 9,
      reasoningTokens: 4,
      cachedTokens: 0,
    });
    expect(encodeMessage(whole, thinkingRequest)).toEqual({
      id: 'msg_abc123',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'thinking', thinking: 'Weather wanted.', signature: signatureOf(whole) },
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_abc1230', name: 'get_weather', input: { city: 'Paris' }, caller: { type: 'direct' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      stop_details: null,
      usage: {
        input_tokens: 20,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        output_tokens: 13,
        output_tokens_details: { thinking_tokens: 4 },
        service_tier: 'standard',
        inference_geo: 'not_available',
      },
    });
  });

  it('signs thinking with base64 that is stable for one reply and differs between replies', () => {
    const one = reply(choice({ text: 'a', reasoning: 'r' }));
    const other = { ...one, id: 'def456' };
    expect(signatureOf(one)).toMatch(/^[A-Za-z0-9+/]{100,}={0,2}$/);
    expect(signatureOf(one)).toBe(signatureOf({ ...one }));
    expect(signatureOf(other)).not.toBe(signatureOf(one));
  });

  it.each([
    [{ finishReason: 'stop' as const }, 'end_turn', null],
    [{ finishReason: 'stop' as const, stopSequence: 'END' }, 'stop_sequence', 'END'],
    [{ finishReason: 'length' as const }, 'max_tokens', null],
    [{ finishReason: 'tool_calls' as const }, 'tool_use', null],
    [{ finishReason: 'content_filter' as const }, 'refusal', null],
  ])('maps finish reasons to stop reasons (%o)', (overrides, stopReason, stopSequence) => {
    const message = encodeMessage(reply(choice({ text: 'x', ...overrides })), plainRequest) as Record<string, unknown>;
    expect(message.stop_reason).toBe(stopReason);
    expect(message.stop_sequence).toBe(stopSequence);
  });

  it('answers an empty turn with no content blocks, as the vendor does', () => {
    expect((encodeMessage(reply(choice({ text: '' })), plainRequest) as { content: unknown[] }).content).toEqual([]);
  });
});

describe('messages events', () => {
  const withEverything = reply(
    choice({ text: 'Let me check the weather.', reasoning: 'The user wants weather.', finishReason: 'tool_calls', toolCalls: [{ id: 'abc1230', name: 'get_weather', arguments: { city: 'Paris', days: 3 } }, { id: 'abc1231', name: 'get_time', arguments: {} }] }),
    { inputTokens: 30, outputTokens: 20, reasoningTokens: 5, cachedTokens: 0 },
  );

  it('names every event twice, seeds blocks empty and pings after the first block start', () => {
    const events = messageEvents(withEverything, thinkingRequest);
    for (const e of events) expect(e.event).toBe((e.data as { type: string }).type);
    const types = events.map((e) => (e.data as { type: string }).type);
    expect(types.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    const starts = events.filter((e) => e.event === 'content_block_start').map((e) => (e.data as { content_block: unknown }).content_block);
    expect(starts).toEqual([
      { type: 'thinking', thinking: '', signature: '' },
      { type: 'text', text: '' },
      { type: 'tool_use', id: 'toolu_abc1230', name: 'get_weather', input: {}, caller: { type: 'direct' } },
      { type: 'tool_use', id: 'toolu_abc1231', name: 'get_time', input: {}, caller: { type: 'direct' } },
    ]);
    const start = events[0]!.data as { message: { usage: Record<string, number>; content: unknown[]; stop_reason: unknown } };
    expect(start.message.usage).toMatchObject({ input_tokens: 30, output_tokens: 1 });
    expect(start.message.content).toEqual([]);
    expect(start.message.stop_reason).toBeNull();
    expect(events.at(-2)!.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null, stop_details: null },
      usage: { input_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 25, output_tokens_details: { thinking_tokens: 5 } },
    });
  });

  it('ends thinking with one signature delta and gives a tool without arguments one empty input_json_delta', () => {
    const deltas = messageEvents(withEverything, thinkingRequest)
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => e.data as { index: number; delta: Record<string, string> });
    const thinking = deltas.filter((d) => d.index === 0).map((d) => d.delta.type);
    expect(thinking.at(-1)).toBe('signature_delta');
    expect(thinking.filter((t) => t === 'signature_delta')).toHaveLength(1);
    expect(thinking.slice(0, -1).every((t) => t === 'thinking_delta')).toBe(true);
    expect(deltas.filter((d) => d.index === 3).map((d) => d.delta)).toEqual([{ type: 'input_json_delta', partial_json: '' }]);
  });

  it('joined by the vendor SDK, equals the whole message', async () => {
    expect(await accumulate(messageEvents(withEverything, thinkingRequest))).toStrictEqual(encodeMessage(withEverything, thinkingRequest));
    const empty = reply(choice({ text: '' }));
    expect(await accumulate(messageEvents(empty, plainRequest))).toStrictEqual(encodeMessage(empty, plainRequest));
  });

  it('joins a generated reply to the whole one too', async () => {
    const request: ChatRequest = decode({ ...base, max_tokens: 60, stream: true, messages: [{ role: 'user', content: 'Write something long.' }] });
    const generated = finished(replySteps(request, undefined, {
      id: 'gen1',
      createdMs: 0,
      seed: 7,
      chunkBy: 'token',
      pacing: { firstChunkMs: 0, chunkMs: 0 },
      outputLimit: 1000,
    }));
    const events = messageEvents(generated, request);
    expect(events.filter((e) => e.paced).length).toBeGreaterThan(5);
    expect(await accumulate(events)).toStrictEqual(encodeMessage(generated, request));
  });

  it('speaks errors in the vendor envelope: overloaded is 529, in a stream an `error` event', () => {
    const overloaded = new MockError('overloaded', 'Overloaded');
    expect(messagesEnvelope(overloaded)).toMatchObject({ status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
    const context = { reply: withEverything, request: thinkingRequest, cutAt: 3, requestId: 'req_1' };
    expect(messagesStreamError(overloaded, context)).toEqual([
      { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: 'req_1' } },
    ]);
  });
});

describe('tools equal to a list decoded lately', () => {
  const tools = (): Array<Record<string, unknown>> => [
    { name: 'Write', description: 'Writes a file.', input_schema: { type: 'object', properties: { file_path: { type: 'string' }, content: { type: 'string' } }, required: ['file_path'] } },
    { name: 'Read', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } },
  ];
  const ask = (sent: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => ({ ...base, messages: [{ role: 'user', content: 'hi' }], tools: sent, ...extra });

  it('decode as the first list did, and a list differing anywhere is checked again', () => {
    const first = decode(ask(tools()));
    const again = decode(ask(tools()));
    expect(again.tools).toEqual(first.tools);
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
    expect(decode(ask(tools(), { tool_choice: { type: 'tool', name: 'Read' } })).toolChoice).toEqual({ mode: 'tool', name: 'Read' });
    expect(refusal(ask(tools(), { tool_choice: { type: 'tool', name: 'Edit' } })).message).toContain("Tool 'Edit' not found");

    const arrayed = tools();
    arrayed[1]!.input_schema = [];
    expect(refusal(ask(arrayed)).message).toContain('tools.1.input_schema: Invalid input: expected record, received array');
    const twice = tools();
    twice[1]!.name = 'Write';
    expect(refusal(ask(twice)).message).toContain('tools.1.name: Tool names must be unique.');
    const spaced = tools();
    spaced[1]!.name = 'a b';
    expect(refusal(ask(spaced)).message).toContain('tools.1.name:');

    // The same tools, a schema's keys in another order: decoded (and stringified) in that order.
    const reordered = tools();
    reordered[0]!.input_schema = { required: ['file_path'], type: 'object', properties: { content: { type: 'string' }, file_path: { type: 'string' } } };
    expect(JSON.stringify(decode(ask(reordered)).tools[0]!.parameters)).toBe(JSON.stringify(reordered[0]!.input_schema));
    expect(JSON.stringify(decode(ask(tools())).tools[0]!.parameters)).toBe(JSON.stringify(tools()[0]!.input_schema));
  });
});
