// The generate-content style as pure functions: decode into the neutral request, encode a reply
// whole and as stream chunks that join to it.
import { describe, expect, it } from 'vitest';
import { MockError } from '../../src/conversation/errors.js';
import type { ChatRequest, Reply, ReplyChoice } from '../../src/conversation/types.js';
import { decodeCountTokens, decodeGenerateContent } from '../../src/styles/generate-content/decode.js';
import { encodeGenerateContent } from '../../src/styles/generate-content/encode.js';
import { generateContentEvents } from '../../src/styles/generate-content/events.js';
import { generateContent, parseTarget, streamFraming } from '../../src/styles/generate-content/index.js';
import { toJsonSchema } from '../../src/styles/generate-content/schema.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function decode(body: unknown, action = 'generateContent'): ChatRequest {
  return decodeGenerateContent({ body, query: {}, headers: {}, params: { model: 'gemini-2.5-flash', action } });
}

function refusal(body: unknown): MockError {
  try {
    decode(body);
  } catch (error) {
    expect(error).toBeInstanceOf(MockError);
    return error as MockError;
  }
  throw new Error('expected the body to be refused');
}

const say = (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] });

describe('parseTarget', () => {
  it('splits the model from the action at the last colon', () => {
    expect(parseTarget('gemini-2.5-flash:streamGenerateContent')).toEqual({ model: 'gemini-2.5-flash', action: 'streamGenerateContent' });
    expect(parseTarget('ns:model:countTokens')).toEqual({ model: 'ns:model', action: 'countTokens' });
  });

  it('answers an unknown or missing action with not_found', () => {
    for (const target of ['gemini-2.5-flash:embedContents', 'gemini-2.5-flash']) {
      expect(() => parseTarget(target)).toThrow(MockError);
      try {
        parseTarget(target);
      } catch (error) {
        expect((error as MockError).kind).toBe('not_found');
      }
    }
  });
});

describe('decode', () => {
  it('reads the stream flag from the action and the model from the path', () => {
    expect(decode(say('hi'), 'streamGenerateContent')).toMatchObject({ stream: true, model: 'gemini-2.5-flash', style: 'generate-content' });
    expect(decode(say('hi')).stream).toBe(false);
  });

  it('turns a user content of function responses into a tool turn, and model function calls into tool calls', () => {
    const request = decode({
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Rome?' }] },
        { role: 'model', parts: [{ text: 'thinking', thought: true }, { functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Rome' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'get_weather', response: { temperature: 21 } } }, { text: 'Thanks' }] },
      ],
    });
    expect(request.turns).toEqual([
      { role: 'user', parts: [{ kind: 'text', text: 'Weather in Rome?' }] },
      {
        role: 'assistant',
        parts: [
          { kind: 'reasoning', text: 'thinking' },
          { kind: 'tool_call', id: 'c1', name: 'get_weather', arguments: { city: 'Rome' } },
        ],
      },
      { role: 'tool', parts: [{ kind: 'tool_result', callId: 'c1', name: 'get_weather', content: '{"temperature":21}' }] },
      { role: 'user', parts: [{ kind: 'text', text: 'Thanks' }] },
    ]);
  });

  it('keeps inlineData as a media part and the system instruction as text', () => {
    const request = decode({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Be kind.' }] },
      contents: [{ parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] }],
    });
    expect(request.system).toBe('Be brief.\nBe kind.');
    expect(request.turns[0]!.parts).toEqual([{ kind: 'media', mimeType: 'image/png', data: PNG }]);
    expect(decode({ ...say('x'), systemInstruction: 'Plain.' }).system).toBe('Plain.');
  });

  it('takes a system instruction with any role or none, as the real service does', () => {
    for (const role of ['system', 'user', 'model', undefined]) {
      expect(decode({ ...say('x'), systemInstruction: { role, parts: [{ text: 'Be brief.' }] } }).system).toBe('Be brief.');
    }
  });

  it('refuses misplaced calls, parts with two kinds of data, and empty parts, naming the part', () => {
    const misplaced = refusal({ contents: [{ role: 'user', parts: [{ functionCall: { name: 'f', args: {} } }] }] });
    expect(misplaced.options.param).toBe('contents[0].parts[0].functionCall');
    const twice = refusal({ contents: [{ parts: [{ text: 'a', inlineData: { mimeType: 'image/png', data: PNG } }] }] });
    expect(twice.options.param).toBe('contents[0].parts[0]');
    expect(twice.message).toContain('text and inlineData');
    expect(refusal({ contents: [{ parts: [{}] }] }).options.param).toBe('contents[0].parts[0]');
    expect(refusal({ contents: [{ role: 'system', parts: [{ text: 'x' }] }] }).options.param).toBe('contents[0].role');
    expect(refusal({ contents: [] }).options.param).toBe('contents');
    expect(refusal({ contents: [{ role: 'user', parts: [] }] }).options.param).toBe('contents[0].parts');
  });

  it('converts upper-case declarations to JSON Schema and maps the calling modes', () => {
    const tools = [{ functionDeclarations: [{ name: 'a', parameters: { type: 'OBJECT', properties: { x: { type: 'STRING' } } } }, { name: 'b' }] }];
    const auto = decode({ ...say('x'), tools });
    expect(auto.tools).toEqual([
      { name: 'a', description: undefined, parameters: { type: 'object', properties: { x: { type: 'string' } } } },
      { name: 'b', description: undefined, parameters: { type: 'object', properties: {} } },
    ]);
    expect(auto.toolChoice).toEqual({ mode: 'auto' });
    const mode = (functionCallingConfig: unknown) => decode({ ...say('x'), tools, toolConfig: { functionCallingConfig } }).toolChoice;
    expect(mode({ mode: 'NONE' })).toEqual({ mode: 'none' });
    expect(mode({ mode: 'ANY' })).toEqual({ mode: 'required' });
    expect(mode({ mode: 'any', allowedFunctionNames: ['b', 'a'] })).toEqual({ mode: 'required', among: ['b', 'a'] });
    expect(mode({ mode: 'ANY', allowedFunctionNames: ['a'] })).toEqual({ mode: 'tool', name: 'a' });
    const unknown = refusal({ ...say('x'), tools, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['c'] } } });
    expect(unknown.options.param).toBe('toolConfig.functionCallingConfig.allowedFunctionNames[0]');
    const duplicate = refusal({ ...say('x'), tools: [{ functionDeclarations: [{ name: 'a' }, { name: 'a' }] }] });
    expect(duplicate.options.param).toBe('tools[0].functionDeclarations[1].name');
  });

  it('maps responseMimeType and the schemas to a response format', () => {
    const config = (generationConfig: unknown) => decode({ ...say('x'), generationConfig }).responseFormat;
    expect(config({ responseMimeType: 'application/json' })).toEqual({ type: 'json_object' });
    expect(config({ responseMimeType: 'text/plain' })).toEqual({ type: 'text' });
    expect(config({ responseMimeType: 'application/json', responseSchema: { type: 'ARRAY', items: { type: 'NUMBER' } } })).toEqual({
      type: 'json_schema',
      schema: { type: 'array', items: { type: 'number' } },
    });
    const jsonSchema = { type: 'object', properties: { a: { const: 1 } } };
    expect(config({ responseMimeType: 'application/json', responseJsonSchema: jsonSchema })).toEqual({ type: 'json_schema', schema: jsonSchema });
    expect(refusal({ ...say('x'), generationConfig: { responseSchema: { type: 'STRING' } } }).options.param).toBe('generationConfig.responseSchema');
  });

  it('turns thinking on unless the budget is 0, and shows it only with includeThoughts', () => {
    const reasoning = (thinkingConfig: unknown) => decode({ ...say('x'), generationConfig: { thinkingConfig } }).reasoning;
    expect(reasoning({ thinkingBudget: 0, includeThoughts: true })).toBeUndefined();
    expect(reasoning({ thinkingBudget: 512 })).toEqual({ effort: undefined, budgetTokens: 512, visible: false });
    expect(reasoning({ thinkingLevel: 'high', includeThoughts: true })).toEqual({ effort: 'high', budgetTokens: undefined, visible: true });
    expect(decode(say('x')).reasoning).toBeUndefined();
  });

  it('reads candidateCount, limits, stop sequences and image output', () => {
    const request = decode({
      ...say('x'),
      generationConfig: {
        candidateCount: 3,
        maxOutputTokens: 64,
        stopSequences: ['END'],
        temperature: 0.2,
        responseModalities: ['TEXT', 'IMAGE'],
        imageConfig: { aspectRatio: '16:9', imageSize: '2K' },
      },
    });
    expect(request).toMatchObject({ choices: 3, maxOutputTokens: 64, stopSequences: ['END'], temperature: 0.2 });
    expect(request.imageOutput).toMatchObject({ aspectRatio: '16:9', imageSize: '2K', withText: true });
    expect(request.imageOutput!.fields!.aspectRatio).toBe('generationConfig.imageConfig.aspectRatio');
    expect(decode(say('x')).imageOutput).toBeUndefined();
    expect(refusal({ ...say('x'), generationConfig: { candidateCount: 9 } }).options.param).toBe('generationConfig.candidateCount');
  });

  it('accepts the fields it does not act on', () => {
    expect(() =>
      decode({
        ...say('x'),
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        cachedContent: 'cachedContents/abc',
        labels: { team: 'qa' },
        tools: [{ googleSearch: {} }],
        generationConfig: { mediaResolution: 'MEDIA_RESOLUTION_LOW', seed: 7 },
      }),
    ).not.toThrow();
  });

  it('counts from contents alone or from a whole generateContentRequest', () => {
    const input = (body: unknown) => ({ body, query: {}, headers: {}, params: { model: 'm', action: 'countTokens' } });
    expect(decodeCountTokens(input(say('x'))).turns).toHaveLength(1);
    expect(decodeCountTokens(input({ generateContentRequest: { ...say('x'), systemInstruction: 'S' } })).system).toBe('S');
    expect(() => decodeCountTokens(input({}))).toThrow(MockError);
  });
});

describe('toJsonSchema', () => {
  it('lower-cases types, folds nullable into the type, reads int64 strings, keeps key order', () => {
    const schema = toJsonSchema(
      { description: 'd', type: 'OBJECT', properties: { tags: { type: 'ARRAY', items: { type: 'STRING', nullable: true }, maxItems: '3' } } },
      'p',
    );
    expect(schema).toEqual({ description: 'd', type: 'object', properties: { tags: { type: 'array', items: { type: ['string', 'null'] }, maxItems: 3 } } });
    expect(Object.keys(schema)).toEqual(['description', 'type', 'properties']);
  });

  it('names the field of an unknown type', () => {
    expect(() => toJsonSchema({ type: 'OBJECT', properties: { a: { type: 'TEXT' } } }, 'root')).toThrow("'root.properties.a.type'");
  });
});

function choice(overrides: Partial<ReplyChoice> = {}): ReplyChoice {
  return {
    text: 'Hello there, friend.',
    textChunks: ['Hello', ' there,', ' friend.'],
    toolCalls: [],
    images: [],
    finishReason: 'stop',
    reasoningChunks: [],
    ...overrides,
  };
}

function reply(choices: ReplyChoice[], reasoningTokens = 0): Reply {
  return {
    id: 'a1b2c3d4e5f60718293a4b5c',
    model: 'gemini-2.5-flash',
    createdMs: 0,
    choices,
    usage: { inputTokens: 12, outputTokens: 20, reasoningTokens, cachedTokens: 0 },
    pacing: { firstChunkMs: 0, chunkMs: 0 },
  };
}

type Body = {
  candidates: Array<{ content: { role: string; parts?: Array<Record<string, unknown>> }; finishReason?: string; index: number }>;
  usageMetadata: Record<string, unknown>;
  responseId: string;
  modelVersion: string;
};

describe('encode', () => {
  it('orders parts as thought, text, images, calls, and maps finish reasons', () => {
    const request = decode({ ...say('x'), generationConfig: { thinkingConfig: { includeThoughts: true } } });
    const body = encodeGenerateContent(
      reply(
        [
          choice({
            reasoning: 'Because.',
            images: [{ mimeType: 'image/png', data: PNG }],
            toolCalls: [{ id: 'call1', name: 'f', arguments: { a: 1 } }],
            finishReason: 'tool_calls',
          }),
          choice({ finishReason: 'length' }),
          choice({ finishReason: 'content_filter' }),
        ],
        5,
      ),
      request,
    ) as Body;
    const parts = body.candidates[0]!.content.parts!;
    expect(parts.map((p) => Object.keys(p)[0])).toEqual(['text', 'text', 'inlineData', 'functionCall']);
    expect(parts[0]).toEqual({ text: 'Because.', thought: true });
    expect(parts[2]).toEqual({ inlineData: { mimeType: 'image/png', data: PNG } });
    expect(parts[3]!.functionCall).toEqual({ id: 'call1', name: 'f', args: { a: 1 } });
    expect(typeof parts[3]!.thoughtSignature).toBe('string');
    expect(body.candidates.map((c) => c.finishReason)).toEqual(['STOP', 'MAX_TOKENS', 'SAFETY']);
    expect(body.usageMetadata).toMatchObject({ promptTokenCount: 12, candidatesTokenCount: 20, thoughtsTokenCount: 5, totalTokenCount: 37 });
    expect(body.modelVersion).toBe('gemini-2.5-flash');
    expect(body.responseId).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('hides reasoning without includeThoughts but still counts it', () => {
    const request = decode({ ...say('x'), generationConfig: { thinkingConfig: { thinkingBudget: 100 } } });
    const body = encodeGenerateContent(reply([choice({ reasoning: 'Hidden.' })], 4), request) as Body;
    expect(body.candidates[0]!.content.parts).toEqual([{ text: 'Hello there, friend.' }]);
    expect(body.usageMetadata.thoughtsTokenCount).toBe(4);
  });
});

describe('events', () => {
  const request = decode({ ...say('x'), generationConfig: { thinkingConfig: { includeThoughts: true } } }, 'streamGenerateContent');
  const whole = reply(
    [
      choice({ reasoning: 'Think.', reasoningChunks: ['Thi', 'nk.'] }),
      choice({ text: 'Second.', textChunks: ['Sec', 'ond.'], toolCalls: [{ id: 'k', name: 'f', arguments: {} }], finishReason: 'tool_calls' }),
    ],
    3,
  );
  const chunks = generateContentEvents(whole, request).map((e) => e.data as Body);
  const encoded = encodeGenerateContent(whole, request) as Body;

  it('sends one candidate per chunk whose parts join to the whole candidate', () => {
    for (const index of [0, 1]) {
      const own = chunks.flatMap((c) => c.candidates).filter((c) => c.index === index);
      const joined = own.flatMap((c) => c.content.parts ?? []);
      const text = joined.filter((p) => p.text !== undefined && !p.thought).map((p) => p.text).join('');
      const wholeParts = encoded.candidates[index]!.content.parts!;
      expect(text).toBe(wholeParts.filter((p) => p.text !== undefined && !p.thought).map((p) => p.text).join(''));
      expect(joined.filter((p) => p.functionCall)).toEqual(wholeParts.filter((p) => p.functionCall));
      expect(own.filter((c) => c.finishReason).map((c) => c.finishReason)).toEqual([encoded.candidates[index]!.finishReason]);
    }
    expect(chunks.every((c) => c.candidates.length === 1)).toBe(true);
  });

  it('carries running usage that never falls and ends at the whole reply', () => {
    expect(chunks.at(-1)!.usageMetadata).toEqual(encoded.usageMetadata);
    const totals = chunks.map((c) => c.usageMetadata.totalTokenCount as number);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    expect(totals[0]).toBeLessThan(totals.at(-1)!);
  });

  it('marks every content chunk as paced and frames by alt', () => {
    expect(generateContentEvents(whole, request).every((e) => e.paced && e.event === undefined)).toBe(true);
    const input = (query: Record<string, string>) => ({ body: {}, query, headers: {}, params: {} });
    expect(streamFraming(input({ alt: 'sse' }))).toBe('sse');
    expect(streamFraming(input({}))).toBe('json-array');
  });

  it('spells a stream error in the envelope shape', () => {
    const events = generateContent.streamError(new MockError('overloaded', 'Busy.'));
    expect(events).toEqual([{ data: { error: { code: 503, message: 'Busy.', status: 'UNAVAILABLE' } } }]);
  });
});
