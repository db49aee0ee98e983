// What a request asks of the answer besides its text, through the official SDKs (SPEC 20):
// `service_tier` echoed (flex and priority as asked, auto as default), log probabilities when
// asked (chat-completions `logprobs`/`top_logprobs`, responses `include`, generate-content
// `responseLogprobs`), seeded and true to the text, the same whole and streamed (each streamed
// piece carrying its own tokens'); and
// generate-content's `text/x.enum` answered with one of the schema's values.
import { GoogleGenAI, Type, type GenerateContentResponse } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: OpenAI;
let ai: GoogleGenAI;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'said.yaml': 'chat:\n  - match: { contains: "weather" }\n    reply: { text: "It is sunny in Paris today." }\n' } });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
  ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
});
afterAll(() => server.close());

const messages = [{ role: 'user' as const, content: 'weather?' }];

describe('service_tier', () => {
  it.each([
    ['flex', 'flex'],
    ['priority', 'priority'],
    ['auto', 'default'],
  ] as const)('asked %s, answers %s in both OpenAI styles', async (asked, served) => {
    expect((await client.chat.completions.create({ model: 'gpt-4o-mini', messages, service_tier: asked })).service_tier).toBe(served);
    expect((await client.responses.create({ model: 'gpt-4o-mini', input: 'weather?', service_tier: asked })).service_tier).toBe(served);
  });
});

describe('log probabilities', () => {
  it('chat-completions: one entry a token, joined the text, the same figures streamed', async () => {
    const whole = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, logprobs: true, top_logprobs: 2, seed: 1 });
    const content = whole.choices[0]!.logprobs!.content!;
    expect(content.map((entry) => entry.token).join('')).toBe('It is sunny in Paris today.');
    for (const entry of content) {
      expect(entry.logprob).toBeLessThanOrEqual(0);
      expect(entry.top_logprobs).toHaveLength(2);
      expect(entry.top_logprobs[0]!.token).toBe(entry.token);
      expect(Buffer.from(entry.bytes!).toString()).toBe(entry.token);
    }
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, logprobs: true, top_logprobs: 2, seed: 1, stream: true });
    const streamed: unknown[] = [];
    for await (const chunk of stream) streamed.push(...(chunk.choices[0]?.logprobs?.content ?? []));
    expect(streamed.map((entry) => (entry as { logprob: number }).logprob)).toEqual(content.map((entry) => entry.logprob));
    expect((await client.chat.completions.create({ model: 'gpt-4o-mini', messages })).choices[0]!.logprobs).toBeNull();
  });

  it('responses: output_text.logprobs when include asks, the stream deltas carrying the same', async () => {
    const asked = { model: 'gpt-4o-mini', input: 'weather?', include: ['message.output_text.logprobs' as const], top_logprobs: 1 };
    const whole = await client.responses.create(asked);
    const item = whole.output[0]!;
    const logprobs = item.type === 'message' && item.content[0]!.type === 'output_text' ? item.content[0]!.logprobs! : [];
    expect(logprobs.map((entry) => entry.token).join('')).toBe('It is sunny in Paris today.');
    const stream = client.responses.stream(asked);
    const deltas: number[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(...event.logprobs.map((entry) => entry.logprob)));
    await stream.finalResponse();
    expect(deltas).toEqual(logprobs.map((entry) => entry.logprob));
  });

  it('generate-content: logprobsResult and avgLogprobs when responseLogprobs asks', async () => {
    const answer = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'weather?', config: { responseLogprobs: true, logprobs: 3 } });
    const candidate = answer.candidates![0]!;
    expect(candidate.logprobsResult!.chosenCandidates!.map((c) => c.token).join('')).toBe(answer.text);
    expect(candidate.logprobsResult!.topCandidates![0]!.candidates).toHaveLength(3);
    expect(candidate.avgLogprobs).toBeLessThanOrEqual(0);
  });

  it('generate-content streamed: each chunk carries its own tokens, together the whole answer\'s', async () => {
    const config = { responseLogprobs: true, logprobs: 2 };
    const whole = (await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'weather?', config })).candidates![0]!.logprobsResult!;
    const chunks: GenerateContentResponse[] = [];
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'weather?', config })) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(1);
    const results = chunks.map((chunk) => chunk.candidates![0]!.logprobsResult!);
    results.forEach((result, at) => expect(result.chosenCandidates!.map((c) => c.token).join('')).toBe(chunks[at]!.text));
    expect(results.flatMap((result) => result.chosenCandidates!)).toEqual(whole.chosenCandidates);
    expect(results.flatMap((result) => result.topCandidates!)).toEqual(whole.topCandidates);
  });
});

describe('text/x.enum', () => {
  it('answers one of the enum values as plain text, and refuses a schema without values', async () => {
    const values = ['PERCUSSION', 'STRING', 'WOODWIND'];
    const answer = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'What kind of instrument is a violin?',
      config: { responseMimeType: 'text/x.enum', responseSchema: { type: Type.STRING, enum: values } },
    });
    expect(values).toContain(answer.text);
    await expect(
      ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x', config: { responseMimeType: 'text/x.enum', responseSchema: { type: Type.STRING } } }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
