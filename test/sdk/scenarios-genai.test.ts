// The shipped scenarios meet @google/genai: ApiError with the HTTP status and the vendor's body,
// RetryInfo on rate limits, and streams that break mid-way.
import { ApiError, GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';

let server: TestServer;

const client = (scenario: string) =>
  new GoogleGenAI({
    apiKey: 'test-key',
    httpOptions: { baseUrl: server.url, headers: { 'x-mock-scenario': scenario, 'x-mock-session': `genai-${scenario}` } },
  });

const request = { model: 'gemini-2.5-flash', contents: 'Tell me a long story.', config: { maxOutputTokens: 400 } };

async function failure(scenario: string): Promise<ApiError> {
  const error = await client(scenario).models.generateContent(request).catch((e: unknown) => e);
  expect(error, scenario).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: shippedScenarioFiles() });
});
afterAll(() => server.close());

describe('shipped error scenarios through @google/genai', () => {
  it('rate_limit raises ApiError 429 RESOURCE_EXHAUSTED with a RetryInfo detail', async () => {
    const error = await failure('rate_limit');
    expect(error.status).toBe(429);
    expect(JSON.parse(error.message).error).toMatchObject({
      code: 429,
      status: 'RESOURCE_EXHAUSTED',
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }],
    });
  });

  it('each kind raises ApiError with its status and status name', async () => {
    const cases = [
      ['invalid_request', 400, 'INVALID_ARGUMENT'],
      ['unauthorized', 401, 'UNAUTHENTICATED'],
      ['forbidden', 403, 'PERMISSION_DENIED'],
      ['not_found', 404, 'NOT_FOUND'],
      ['server_error', 500, 'INTERNAL'],
      ['overloaded', 503, 'UNAVAILABLE'],
    ] as const;
    for (const [scenario, status, name] of cases) {
      const error = await failure(scenario);
      expect(error.status, scenario).toBe(status);
      expect(JSON.parse(error.message).error, scenario).toMatchObject({ code: status, status: name });
    }
  });
});

describe('shipped stream faults through @google/genai', () => {
  async function streamed(scenario: string) {
    const texts: string[] = [];
    const error = await (async () => {
      for await (const chunk of await client(scenario).models.generateContentStream(request)) texts.push(chunk.text ?? '');
    })().catch((e: unknown) => e);
    return { texts, error };
  }

  it('cut_stream: iteration fails after three chunks', async () => {
    const { texts, error } = await streamed('cut_stream');
    expect(error).toBeInstanceOf(Error);
    expect(texts).toHaveLength(3);
  });

  it('stream_error: the in-stream error raises ApiError 500 after three chunks', async () => {
    const { texts, error } = await streamed('stream_error');
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    expect(texts).toHaveLength(3);
  });
});
