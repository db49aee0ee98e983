// The generate-content style through the official @google/genai SDK. The wire details the SDK
// cannot show are in test/styles/generate-content-wire.test.ts.
import { ApiError, createPartFromUri, GoogleGenAI, Type, type GenerateContentResponse } from '@google/genai';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_CHAT_FIXTURES } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
${SHARED_CHAT_FIXTURES}  - name: weather-answer
    match: { tools: [get_weather], conversation: "temperature" }
    priority: 1
    reply:
      text: "It is 18 degrees in Paris."
  - name: photo
    match: { media: "image/*" }
    reply:
      text: "I see a picture."
`;

// A 1x1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const weatherDeclaration = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: {
    type: Type.OBJECT,
    properties: { city: { type: Type.STRING }, unit: { type: Type.STRING, enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
  },
};
// The same declaration as the JSON Schema a client would validate with.
const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
};

let server: TestServer;
let ai: GoogleGenAI;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES } });
  ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
});
afterAll(() => server.close());

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('generateContent through @google/genai', () => {
  it('answers a fixture hit with its text, usage and ids', async () => {
    const response = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hello there' });
    expect(response.text).toBe('Hello from the fixture. How can I help?');
    const candidate = response.candidates![0]!;
    expect(candidate.finishReason).toBe('STOP');
    expect(candidate.content!.role).toBe('model');
    const usage = response.usageMetadata!;
    expect(usage.promptTokenCount).toBeGreaterThan(0);
    expect(usage.candidatesTokenCount).toBe(10);
    expect(usage.totalTokenCount).toBe(usage.promptTokenCount! + usage.candidatesTokenCount!);
    expect(usage.thoughtsTokenCount).toBeUndefined();
    expect(usage.promptTokensDetails).toEqual([{ modality: 'TEXT', tokenCount: usage.promptTokenCount }]);
    expect(response.modelVersion).toBe('gemini-2.5-flash');
    expect(response.responseId).toMatch(/^[A-Za-z0-9_-]{8,}$/);
  });

  it('calls a declared function with the fixture arguments, which fit the declaration', async () => {
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'What is the weather in Paris?',
      config: { tools: [{ functionDeclarations: [weatherDeclaration] }] },
    });
    const call = response.functionCalls![0]!;
    expect(call.name).toBe('get_weather');
    expect(call.args).toEqual({ city: 'Paris', unit: 'celsius' });
    expect(new Ajv().compile(weatherSchema)(call.args)).toBe(true);
    expect(response.candidates![0]!.finishReason).toBe('STOP');
    expect(response.candidates![0]!.content!.parts!.some((p) => p.text !== undefined)).toBe(false);
  });

  it('generates arguments that validate when mode ANY forces a call', async () => {
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Plan a trip',
      config: {
        tools: [{ functionDeclarations: [weatherDeclaration] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY' as never } },
      },
    });
    const call = response.functionCalls![0]!;
    expect(call.name).toBe('get_weather');
    expect(new Ajv().compile(weatherSchema)(call.args)).toBe(true);
  });

  it('answers the functionResponse follow-up turn', async () => {
    const first = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'What is the weather in Paris?',
      config: { tools: [{ functionDeclarations: [weatherDeclaration] }] },
    });
    const call = first.functionCalls![0]!;
    const second = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: [
        { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
        first.candidates![0]!.content!,
        { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { temperature: 18 } } }] },
      ],
      config: { tools: [{ functionDeclarations: [weatherDeclaration] }] },
    });
    expect(second.text).toBe('It is 18 degrees in Paris.');
    expect(second.functionCalls).toBeUndefined();
  });

  it('shows a thought part first with includeThoughts, and counts the thoughts', async () => {
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'hello',
      config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
    });
    const parts = response.candidates![0]!.content!.parts!;
    expect(parts[0]).toEqual({ text: 'The user greets me.', thought: true });
    expect(response.text).toBe('Hello from the fixture. How can I help?');
    const usage = response.usageMetadata!;
    expect(usage.thoughtsTokenCount).toBeGreaterThan(0);
    expect(usage.totalTokenCount).toBe(usage.promptTokenCount! + usage.candidatesTokenCount! + usage.thoughtsTokenCount!);
  });

  it('counts hidden thoughts without showing them, and none with a budget of 0', async () => {
    const hidden = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'hello',
      config: { thinkingConfig: { thinkingBudget: 1024 } },
    });
    expect(hidden.candidates![0]!.content!.parts!.some((p) => p.thought)).toBe(false);
    expect(hidden.usageMetadata!.thoughtsTokenCount).toBeGreaterThan(0);
    const off = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'hello',
      config: { thinkingConfig: { thinkingBudget: 0, includeThoughts: true } },
    });
    expect(off.candidates![0]!.content!.parts).toEqual([{ text: 'Hello from the fixture. How can I help?' }]);
    expect(off.usageMetadata!.thoughtsTokenCount).toBeUndefined();
  });

  it('answers responseSchema with upper-case types with JSON that validates', async () => {
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Review a film',
      config: {
        responseMimeType: 'application/json',
        responseSchema: {
          type: Type.OBJECT,
          properties: {
            title: { type: Type.STRING },
            rating: { type: Type.INTEGER, minimum: 1, maximum: 5 },
            tags: { type: Type.ARRAY, items: { type: Type.STRING }, maxItems: '3' as never },
            note: { type: Type.STRING, nullable: true },
          },
          required: ['title', 'rating', 'tags', 'note'],
        },
      },
    });
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string' },
        rating: { type: 'integer', minimum: 1, maximum: 5 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
        note: { type: ['string', 'null'] },
      },
      required: ['title', 'rating', 'tags', 'note'],
    };
    expect(new Ajv().compile(schema)(JSON.parse(response.text!))).toBe(true);
  });

  it('answers responseJsonSchema with JSON that validates', async () => {
    const schema = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false };
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'An id please',
      config: { responseMimeType: 'application/json', responseJsonSchema: schema },
    });
    expect(new Ajv().compile(schema)(JSON.parse(response.text!))).toBe(true);
  });

  it('gives candidateCount distinct, deterministic candidates', async () => {
    const request = { model: 'gemini-2.5-flash', contents: 'Say something', config: { candidateCount: 2 } };
    const first = await ai.models.generateContent(request);
    const again = await ai.models.generateContent(request);
    const texts = first.candidates!.map((c) => c.content!.parts![0]!.text);
    expect(first.candidates!.map((c) => c.index)).toEqual([0, 1]);
    expect(new Set(texts).size).toBe(2);
    expect(again.candidates!.map((c) => c.content!.parts![0]!.text)).toEqual(texts);
  });

  it('matches an inlineData image with a media fixture and reports the image tokens', async () => {
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: [{ role: 'user', parts: [{ text: 'What is on this?' }, { inlineData: { mimeType: 'image/png', data: PNG } }] }],
    });
    expect(response.text).toBe('I see a picture.');
    const details = response.usageMetadata!.promptTokensDetails!;
    expect(details.map((d) => d.modality)).toEqual(['TEXT', 'IMAGE']);
    expect(details.reduce((sum, d) => sum + d.tokenCount!, 0)).toBe(response.usageMetadata!.promptTokenCount);
  });
});

describe('errors through @google/genai', () => {
  it('refuses fileData with a 400 that says media must be inline', async () => {
    const error = await apiError(
      ai.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: [{ role: 'user', parts: [{ text: 'Describe' }, createPartFromUri('https://example.com/a.png', 'image/png')] }],
      }),
    );
    expect(error.status).toBe(400);
    const body = JSON.parse(error.message) as { error: { code: number; status: string; message: string } };
    expect(body.error.status).toBe('INVALID_ARGUMENT');
    expect(body.error.message).toMatch(/inline.*base64/i);
  });

  it('names the field of a bad value', async () => {
    const error = await apiError(ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config: { temperature: 5 } }));
    expect(error.status).toBe(400);
    expect(error.message).toContain('generationConfig.temperature');
  });

  it('answers an unknown model with 404 NOT_FOUND', async () => {
    const error = await apiError(ai.models.generateContent({ model: 'gemini-9-ultra', contents: 'hi' }));
    expect(error.status).toBe(404);
    expect(JSON.parse(error.message).error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
  });

  it('answers an unknown key with 401 UNAUTHENTICATED', async () => {
    const keyed = await startTestServer({ fixtureFiles: { 'keys.yaml': 'keys:\n  - key: the-right-key\n' } });
    try {
      const wrong = new GoogleGenAI({ apiKey: 'a-wrong-key', httpOptions: { baseUrl: keyed.url } });
      const error = await apiError(wrong.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' }));
      expect(error.status).toBe(401);
      expect(JSON.parse(error.message).error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
      const right = new GoogleGenAI({ apiKey: 'the-right-key', httpOptions: { baseUrl: keyed.url } });
      expect((await right.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })).text).toBeTruthy();
    } finally {
      await keyed.close();
    }
  });
});

describe('generateContentStream through @google/genai', () => {
  async function collect(stream: AsyncGenerator<GenerateContentResponse>): Promise<GenerateContentResponse[]> {
    const chunks: GenerateContentResponse[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    return chunks;
  }

  it('streams text that joins to the whole reply, with the whole usage last', async () => {
    const request = { model: 'gemini-2.5-flash', contents: 'Tell me about testing' };
    const whole = await ai.models.generateContent(request);
    const chunks = await collect(await ai.models.generateContentStream(request));
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.map((c) => c.text ?? '').join('')).toBe(whole.text);
    expect(chunks.at(-1)!.usageMetadata).toEqual(whole.usageMetadata);
    expect(chunks.map((c) => c.candidates![0]!.finishReason ?? null).filter(Boolean)).toEqual(['STOP']);
    expect(chunks.at(-1)!.candidates![0]!.finishReason).toBe('STOP');
    expect(new Set(chunks.map((c) => c.responseId)).size).toBe(1);
    const counts = chunks.map((c) => c.usageMetadata!.candidatesTokenCount!);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it('streams the thoughts before the text', async () => {
    const chunks = await collect(
      await ai.models.generateContentStream({
        model: 'gemini-2.5-flash',
        contents: 'hello',
        config: { thinkingConfig: { includeThoughts: true } },
      }),
    );
    const parts = chunks.flatMap((c) => c.candidates![0]!.content?.parts ?? []);
    const firstText = parts.findIndex((p) => !p.thought);
    expect(parts.slice(0, firstText).map((p) => p.text).join('')).toBe('The user greets me.');
    expect(parts.slice(firstText).every((p) => !p.thought)).toBe(true);
    expect(chunks.at(-1)!.usageMetadata!.thoughtsTokenCount).toBeGreaterThan(0);
  });

  it('streams a function call whole', async () => {
    const chunks = await collect(
      await ai.models.generateContentStream({
        model: 'gemini-2.5-flash',
        contents: 'What is the weather in Paris?',
        config: { tools: [{ functionDeclarations: [weatherDeclaration] }] },
      }),
    );
    const calls = chunks.flatMap((c) => c.functionCalls ?? []);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } });
  });
});

describe('countTokens and models through @google/genai', () => {
  it('counts the same prompt tokens generateContent reports', async () => {
    const contents = [{ role: 'user', parts: [{ text: 'hello, count me' }, { inlineData: { mimeType: 'image/png', data: PNG } }] }];
    const counted = await ai.models.countTokens({ model: 'gemini-2.5-flash', contents });
    const generated = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents });
    expect(counted.totalTokens).toBe(generated.usageMetadata!.promptTokenCount);
  });

  it('lists every model over small pages, the last without a page token', async () => {
    const pager = await ai.models.list({ config: { pageSize: 2 } });
    const names: string[] = [];
    for await (const model of pager) names.push(model.name!);
    expect(names).toContain('models/gemini-2.5-flash');
    expect(names.every((n) => n.startsWith('models/'))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    expect(pager.hasNextPage()).toBe(false);
    // By hand: follow the tokens; the last page carries none at all.
    let page: { models: Array<{ name: string }>; nextPageToken?: string } = { models: [] };
    const walked: string[] = [];
    let url = `${server.url}/v1beta/models?key=k&pageSize=2`;
    for (;;) {
      page = (await (await fetch(url)).json()) as typeof page;
      walked.push(...page.models.map((m) => m.name));
      if (page.nextPageToken === undefined) break;
      url = `${server.url}/v1beta/models?key=k&pageSize=2&pageToken=${page.nextPageToken}`;
    }
    expect('nextPageToken' in page).toBe(false);
    expect(walked).toEqual(names);
  });

  it('gets one model', async () => {
    const model = await ai.models.get({ model: 'gemini-2.5-flash' });
    expect(model.name).toBe('models/gemini-2.5-flash');
    expect(model.displayName).toBe('Gemini 2.5 Flash');
    expect(model.supportedActions).toContain('streamGenerateContent');
  });
});
