// Scenarios (errors and stream faults) spoken in the generate-content style, as @google/genai,
// @ai-sdk/google and the raw wire see them.
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { ApiError, GoogleGenAI } from '@google/genai';
import { streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SCENARIOS = `
scenarios:
  - name: busy
    steps: [ { error: rate_limit, headers: { retry-after: "7" } } ]
  - name: broken_stream
    steps: [ { fault: stream_error, after_chunks: 3, error: server_error } ]
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: { 'scenarios.yaml': SCENARIOS } });
});
afterAll(() => server.close());

function genai(scenario: string): GoogleGenAI {
  return new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: server.url, headers: { 'x-mock-scenario': scenario } } });
}

function post(path: string, scenario: string): Promise<Response> {
  return fetch(`${server.url}/v1beta/models/gemini-2.5-flash:${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k', 'x-mock-scenario': scenario },
    body: JSON.stringify({ contents: [{ parts: [{ text: 'Tell me about streams' }] }] }),
  });
}

describe('generate-content scenarios', () => {
  it('answers a rate limit with 429 RESOURCE_EXHAUSTED and a RetryInfo detail', async () => {
    const error = await genai('busy')
      .models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect(JSON.parse((error as ApiError).message).error).toEqual({
      code: 429,
      message: expect.any(String),
      status: 'RESOURCE_EXHAUSTED',
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' }],
    });
  });

  it('applies to countTokens too', async () => {
    const response = await post('countTokens', 'busy');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
  });

  it('ends an SSE stream with an error event in the envelope shape after three chunks', async () => {
    const text = await (await post('streamGenerateContent?alt=sse', 'broken_stream')).text();
    const events = text.trimEnd().split('\n\n').map((event) => JSON.parse(event.replace(/^data: /, '')) as Record<string, unknown>);
    expect(events).toHaveLength(4);
    expect(events.slice(0, 3).every((e) => 'candidates' in e)).toBe(true);
    expect(events[3]).toEqual({ error: { code: 500, message: expect.any(String), status: 'INTERNAL' } });
    expect(text.endsWith('\n\n')).toBe(true);
  });

  it('puts the error object last in the JSON-array stream', async () => {
    const chunks = JSON.parse(await (await post('streamGenerateContent', 'broken_stream')).text()) as Array<Record<string, unknown>>;
    expect(chunks).toHaveLength(4);
    expect(chunks[3]).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
  });

  // WIRE.md says js-genai misses an error event mid-stream; the 2.x SDK checks every data line.
  it('is raised by @google/genai as an ApiError after the chunks before it', async () => {
    const chunks: unknown[] = [];
    const stream = await genai('broken_stream').models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Tell me' });
    const error = await (async () => {
      for await (const chunk of stream) chunks.push(chunk);
    })().catch((e: unknown) => e);
    expect(chunks).toHaveLength(3);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
  });

  it('is surfaced by @ai-sdk/google as a stream error', async () => {
    const google = createGoogleGenerativeAI({ baseURL: `${server.url}/v1beta`, apiKey: 'k', headers: { 'x-mock-scenario': 'broken_stream' } });
    const errors: unknown[] = [];
    const result = streamText({ model: google('gemini-2.5-flash'), prompt: 'Tell me', onError: ({ error }) => void errors.push(error) });
    let text = '';
    for await (const piece of result.textStream) text += piece;
    expect(text.length).toBeGreaterThan(0);
    expect(errors).toHaveLength(1);
  });
});
