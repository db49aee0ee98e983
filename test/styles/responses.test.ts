// The responses style as pure functions: decode into the neutral request, encode the response
// object, and the event stream that, joined by the openai SDK's own accumulator, is that object.
import { accumulateResponse } from 'openai/lib/responses/ResponseAccumulator';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { MockError } from '../../src/conversation/errors.js';
import { countInputTokens } from '../../src/conversation/input-tokens.js';
import { chunkText } from '../../src/conversation/token-chunks.js';
import type { ChatRequest, Reply, Turn } from '../../src/conversation/types.js';
import { decodeChatCompletions } from '../../src/styles/chat-completions/decode.js';
import { responses } from '../../src/styles/responses/index.js';
import type { DecodeContext } from '../../src/styles/style.js';

const NOTHING_STORED: DecodeContext = { storedTurns: () => undefined };

function decode(body: Record<string, unknown>, context: DecodeContext = NOTHING_STORED): ChatRequest {
  return responses.decode({ body: { model: 'o4-mini', ...body }, query: {}, headers: {}, params: {} }, context);
}

function decodeError(body: Record<string, unknown>, context?: DecodeContext): MockError {
  try {
    decode(body, context);
  } catch (error) {
    if (error instanceof MockError) return error;
    throw error;
  }
  throw new Error('expected the body to be refused');
}

function reply(choice: Partial<Reply['choices'][number]> = {}, stream = true): Reply {
  const text = choice.text ?? 'Sunny and mild today.';
  const reasoning = choice.reasoning;
  return {
    id: 'abc123',
    model: 'o4-mini',
    createdMs: 1_767_225_600_000,
    choices: [
      {
        text,
        reasoning,
        toolCalls: choice.toolCalls ?? [],
        images: [],
        finishReason: choice.finishReason ?? 'stop',
        textChunks: stream ? chunkText(text, 'token') : [],
        reasoningChunks: stream && reasoning ? chunkText(reasoning, 'word') : [],
      },
    ],
    usage: { inputTokens: 20, outputTokens: 5, reasoningTokens: 7, cachedTokens: 0 },
    pacing: { firstChunkMs: 0, chunkMs: 0 },
  };
}

const weatherTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('responses decode', () => {
  it('reads a string input as one user turn and instructions as the system text', () => {
    const request = decode({ input: 'Hi there', instructions: 'Be brief.' });
    expect(request.turns).toEqual([{ role: 'user', parts: [{ kind: 'text', text: 'Hi there' }] }]);
    expect(request.system).toBe('Be brief.');
    expect(request.style).toBe('responses');
  });

  it('decodes the same conversation as the chat-completions style, so both count the same tokens', () => {
    const viaResponses = decode({
      instructions: 'You forecast.',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather in Oslo?' }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '18 degrees' },
      ],
      tools: [weatherTool],
    });
    const viaChat = decodeChatCompletions({
      body: {
        model: 'o4-mini',
        messages: [
          { role: 'system', content: 'You forecast.' },
          { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: '18 degrees' },
        ],
        tools: [{ type: 'function', function: { name: weatherTool.name, description: weatherTool.description, parameters: weatherTool.parameters } }],
      },
      query: {},
      headers: {},
      params: {},
    });
    expect(viaResponses.system).toBe(viaChat.system);
    expect(viaResponses.tools).toEqual(viaChat.tools);
    expect(viaResponses.turns.map((t) => t.role)).toEqual(viaChat.turns.map((t) => t.role));
    expect(countInputTokens(viaResponses)).toBe(countInputTokens(viaChat));
  });

  it('joins earlier output items in a row into one assistant turn', () => {
    const request = decode({
      input: [
        { role: 'user', content: 'Weather?' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Needs the tool.' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
        { type: 'function_call', call_id: 'call_9', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'call_9', output: [{ type: 'input_text', text: 'warm' }] },
      ],
    });
    expect(request.turns).toEqual([
      { role: 'user', parts: [{ kind: 'text', text: 'Weather?' }] },
      {
        role: 'assistant',
        parts: [
          { kind: 'reasoning', text: 'Needs the tool.' },
          { kind: 'text', text: 'Checking.' },
          { kind: 'tool_call', id: 'call_9', name: 'get_weather', arguments: { city: 'Rome' } },
        ],
      },
      { role: 'tool', parts: [{ kind: 'tool_result', callId: 'call_9', name: 'get_weather', content: 'warm' }] },
    ]);
  });

  it('reads images, files and audio as media parts', () => {
    const request = decode({
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
            { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          ],
        },
      ],
    });
    expect(request.turns[0]!.parts).toEqual([
      { kind: 'media', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { kind: 'media', mimeType: 'application/pdf', data: 'JVBERi0=' },
      { kind: 'media', mimeType: 'audio/wav', data: 'UklGRg==' },
    ]);
  });

  it('asks for reasoning on an effort or a summary, and shows it only with a summary', () => {
    expect(decode({ input: 'x' }).reasoning).toBeUndefined();
    expect(decode({ input: 'x', reasoning: { effort: 'none' } }).reasoning).toBeUndefined();
    expect(decode({ input: 'x', reasoning: { effort: 'low' } }).reasoning).toEqual({ effort: 'low', visible: false });
    expect(decode({ input: 'x', reasoning: { summary: 'auto' } }).reasoning).toEqual({ visible: true });
  });

  it('keeps function tools, accepts hosted tools without calling them, and maps tool_choice', () => {
    const request = decode({ input: 'x', tools: [weatherTool, { type: 'web_search_preview' }], tool_choice: { type: 'function', name: 'get_weather' } });
    expect(request.tools.map((t) => t.name)).toEqual(['get_weather']);
    expect(request.toolChoice).toEqual({ mode: 'tool', name: 'get_weather' });
    expect(decode({ input: 'x', tool_choice: { type: 'allowed_tools', mode: 'required', tools: [] } }).toolChoice).toEqual({ mode: 'required' });
    expect(decodeError({ input: 'x', tools: [weatherTool], tool_choice: { type: 'function', name: 'nope' } }).options.param).toBe('tool_choice.name');
  });

  it('reads text.format as the response format', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' } } };
    expect(decode({ input: 'x', text: { format: { type: 'json_schema', name: 'thing', schema, strict: true } } }).responseFormat).toEqual({
      type: 'json_schema',
      name: 'thing',
      schema,
    });
    expect(decode({ input: 'x', text: { format: { type: 'json_object' } } }).responseFormat).toEqual({ type: 'json_object' });
  });

  it('names the field of a bad value, however deep', () => {
    expect(decodeError({ input: [{ type: 'function_call_output', output: 'x' }] }).options.param).toBe('input[0].call_id');
    expect(decodeError({ input: [{ role: 'user', content: [{ type: 'input_text', text: 3 }] }] }).options.param).toBe('input[0].content[0].text');
    expect(decodeError({ input: [{ role: 'robot', content: 'x' }] }).options.param).toBe('input[0].role');
    expect(decodeError({ input: 'x', tools: [{ type: 'function' }] }).options.param).toBe('tools[0].name');
    expect(decodeError({ input: 'x', max_output_tokens: 8 }).options.param).toBe('max_output_tokens');
    expect(decodeError({ input: 'x', reasoning: { summary: 'verbose' } }).options.param).toBe('reasoning.summary');
    expect(decodeError({}).options.param).toBe('input');
  });

  it('puts the stored conversation before the input and refuses an unknown previous response', () => {
    const earlier: Turn[] = [
      { role: 'user', parts: [{ kind: 'text', text: 'First' }] },
      { role: 'assistant', parts: [{ kind: 'tool_call', id: 'call_7', name: 'get_weather', arguments: {} }] },
    ];
    const context: DecodeContext = { storedTurns: (id) => (id === 'resp_abc' ? earlier : undefined) };
    const request = decode({ previous_response_id: 'resp_abc', input: [{ type: 'function_call_output', call_id: 'call_7', output: 'ok' }] }, context);
    expect(request.turns).toEqual([...earlier, { role: 'tool', parts: [{ kind: 'tool_result', callId: 'call_7', name: 'get_weather', content: 'ok' }] }]);
    const missing = decodeError({ previous_response_id: 'resp_gone', input: 'x' }, context);
    expect(missing.kind).toBe('not_found');
    expect(missing.options.code).toBe('previous_response_not_found');
  });

  it('resolves item references to the output of the stored response', () => {
    const stored = responses.store!(reply({ reasoning: 'Because.', toolCalls: [{ id: 'x0', name: 'get_weather', arguments: { city: 'Oslo' } }] }), decode({ input: 'Hi' }))!;
    const context: DecodeContext = { storedTurns: (id) => (id === stored.id ? stored.turns : undefined) };
    const request = decode(
      {
        input: [
          { role: 'user', content: 'Hi' },
          { type: 'item_reference', id: 'rs_abc123' },
          { id: 'msg_abc123' },
          { type: 'item_reference', id: 'fc_abc123_0' },
        ],
      },
      context,
    );
    expect(request.turns[1]).toEqual({
      role: 'assistant',
      parts: [
        { kind: 'reasoning', text: 'Because.' },
        { kind: 'text', text: 'Sunny and mild today.' },
        { kind: 'tool_call', id: 'call_x0', name: 'get_weather', arguments: { city: 'Oslo' } },
      ],
    });
    expect(decodeError({ input: [{ type: 'item_reference', id: 'fc_abc123_5' }] }, context).kind).toBe('not_found');
  });
});

describe('responses encode', () => {
  it('lists reasoning, message and function calls with vendor ids, and counts reasoning in the output', () => {
    const request = decode({ input: 'x', reasoning: { effort: 'low', summary: 'auto' }, tools: [weatherTool] });
    const body = responses.encode(reply({ reasoning: 'Think.', toolCalls: [{ id: 'abc1230', name: 'get_weather', arguments: { city: 'Oslo' } }] }), request) as Response;
    expect(body.output).toEqual([
      { id: 'rs_abc123', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Think.' }] },
      {
        id: 'msg_abc123',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Sunny and mild today.', annotations: [], logprobs: [] }],
      },
      { id: 'fc_abc123_0', type: 'function_call', status: 'completed', call_id: 'call_abc1230', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    ]);
    expect(body.usage).toEqual({
      input_tokens: 20,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 12,
      output_tokens_details: { reasoning_tokens: 7 },
      total_tokens: 32,
    });
    expect(body.created_at).toBe(1_767_225_600);
    expect(body.tools).toEqual([{ ...weatherTool, strict: true }]);
  });

  it('hides the reasoning text without a summary, and gives encrypted content only when included', () => {
    const hidden = responses.encode(reply({ reasoning: 'Secret.' }), decode({ input: 'x', reasoning: { effort: 'high' } })) as Response;
    expect(hidden.output[0]).toEqual({ id: 'rs_abc123', type: 'reasoning', summary: [] });
    const included = responses.encode(reply({ reasoning: 'Secret.' }), decode({ input: 'x', reasoning: { effort: 'high' }, include: ['reasoning.encrypted_content'] })) as Response;
    expect(included.output[0]).toMatchObject({ type: 'reasoning', encrypted_content: expect.any(String) });
  });

  it('marks a reply cut by the output limit incomplete', () => {
    const body = responses.encode(reply({ finishReason: 'length' }), decode({ input: 'x', max_output_tokens: 16 })) as Response;
    expect(body.status).toBe('incomplete');
    expect(body.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(body.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    expect(body.max_output_tokens).toBe(16);
  });

  it('echoes the request settings', () => {
    const body = responses.encode(
      reply(),
      decode({ input: 'x', instructions: 'Be kind.', temperature: 0.2, top_p: 0.5, store: false, metadata: { a: 'b' }, user: 'u1', truncation: 'auto', parallel_tool_calls: false }),
    ) as Response;
    expect(body).toMatchObject({ instructions: 'Be kind.', temperature: 0.2, top_p: 0.5, store: false, metadata: { a: 'b' }, user: 'u1', truncation: 'auto', parallel_tool_calls: false });
    expect(body.text).toEqual({ format: { type: 'text' }, verbosity: 'medium' });
  });
});

function accumulate(events: ResponseStreamEvent[]): Response {
  let snapshot: Response | undefined;
  for (const event of events) snapshot = accumulateResponse(event, snapshot);
  return snapshot!;
}

describe('responses events', () => {
  const request = decode({ input: 'x', stream: true, reasoning: { effort: 'low', summary: 'auto' }, tools: [weatherTool] });
  const streamed = reply({ reasoning: 'Think it over.', toolCalls: [{ id: 'abc1230', name: 'get_weather', arguments: { city: 'Oslo' } }] });
  const events = responses.events(streamed, request);
  const data = events.map((e) => e.data as ResponseStreamEvent);

  it('numbers events from 0 and names each on its event line', () => {
    expect(data.map((d) => d.sequence_number)).toEqual(data.map((_, i) => i));
    expect(events.every((e) => e.event === (e.data as { type: string }).type)).toBe(true);
    expect(data[0]!.type).toBe('response.created');
    expect(data[1]!.type).toBe('response.in_progress');
    expect(data.at(-1)!.type).toBe('response.completed');
  });

  it('joined by the SDK accumulator, gives the whole response before the final event says so', () => {
    const whole = responses.encode(streamed, request) as Response;
    const beforeCompleted = accumulate(data.slice(0, -1));
    expect(beforeCompleted.output).toEqual(whole.output);
    expect((data.at(-1) as { response: Response }).response).toEqual(whole);
  });

  it('paces the text, summary and argument deltas and nothing else', () => {
    const paced = new Set(events.filter((e) => e.paced).map((e) => (e.data as { type: string }).type));
    expect(paced).toEqual(
      new Set(['response.output_text.delta', 'response.reasoning_summary_text.delta', 'response.function_call_arguments.delta']),
    );
  });

  it('ends a cut reply with response.incomplete', () => {
    const cut = responses.events(reply({ finishReason: 'length' }), decode({ input: 'x', stream: true }));
    expect((cut.at(-1)!.data as { type: string }).type).toBe('response.incomplete');
  });

  it('breaks off with an error event, then response.failed, numbered on from where the stream was cut', () => {
    const error = new MockError('server_error', 'Boom.');
    const context = { reply: streamed, request, cutAt: 5, requestId: 'req_1' };
    const failure = responses.streamError(error, context).map((e) => e.data as Record<string, unknown>);
    expect(failure[0]).toEqual({
      type: 'error',
      code: null,
      message: 'Boom.',
      param: null,
      sequence_number: 5,
      error: { type: 'server_error', code: null, message: 'Boom.', param: null },
    });
    expect(failure[1]).toMatchObject({
      type: 'response.failed',
      sequence_number: 6,
      response: { id: 'resp_abc123', status: 'failed', error: { code: 'server_error', message: 'Boom.' } },
    });
  });
});
