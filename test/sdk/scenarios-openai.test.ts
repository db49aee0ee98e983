// Scenarios meet the openai SDK: its error classes, its retry logic and its stream reader.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SCENARIOS = `
scenarios:
  - name: limited
    steps: [ { error: rate_limit, headers: { retry-after: "7" } } ]
  - name: bad_key
    steps: [ { error: unauthorized } ]
  - name: bad_request
    steps: [ { error: invalid_request, message: "Scenario says no." } ]
  - name: boom
    steps: [ { error: server_error } ]
  - name: busy
    steps: [ { error: overloaded } ]
  - name: forbidden
    steps: [ { error: forbidden } ]
  - name: teapot
    steps: [ { error: invalid_request, status: 418, message: "I am a teapot.", headers: { x-brewed: "yes" } } ]
  - name: twice_limited_fast
    steps:
      - { error: rate_limit, times: 2, headers: { retry-after-ms: "10" } }
      - pass
  - name: cut
    steps: [ { fault: cut_stream, after_chunks: 2 } ]
  - name: errored
    steps: [ { fault: stream_error, after_chunks: 2, error: overloaded, message: "Overloaded mid-stream." } ]
  - name: broken_json
    steps: [ { fault: malformed } ]
  - name: dropped
    steps: [ { fault: reset } ]
`;

let server: TestServer;

const client = (scenario: string, options: { maxRetries?: number; session?: string } = {}) =>
  new OpenAI({
    baseURL: `${server.url}/v1`,
    apiKey: 'sk-test',
    maxRetries: options.maxRetries ?? 0,
    defaultHeaders: { 'x-mock-scenario': scenario, 'x-mock-session': options.session ?? scenario },
  });

const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Tell me a long story about the sea.' }] };

async function failure(scenario: string): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await client(scenario).chat.completions.create(ask).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

async function journal(session: string) {
  const response = await server.admin(`/requests?session=${session}`);
  return ((await response.json()) as { requests: Array<{ status: number; scenario: string | null }> }).requests;
}

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: { 'test.yaml': SCENARIOS } });
});
afterAll(() => server.close());

describe('scenario errors through the openai SDK', () => {
  it('raises RateLimitError with retry-after and the x-ratelimit headers', async () => {
    const error = await failure('limited');
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.status).toBe(429);
    expect(error.type).toBe('rate_limit_error');
    expect(error.code).toBe('rate_limit_exceeded');
    expect(error.headers?.get('retry-after')).toBe('7');
    expect(error.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(error.headers?.get('x-ratelimit-reset-requests')).toBe('7s');
    expect(error.headers?.get('x-ratelimit-limit-requests')).toMatch(/^\d+$/);
  });

  it('raises AuthenticationError, BadRequestError, PermissionDeniedError and InternalServerError', async () => {
    const auth = await failure('bad_key');
    expect(auth).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(auth.status).toBe(401);
    const bad = await failure('bad_request');
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect(bad.type).toBe('invalid_request_error');
    expect(bad.message).toBe('400 Scenario says no.');
    const forbidden = await failure('forbidden');
    expect(forbidden).toBeInstanceOf(OpenAI.PermissionDeniedError);
    const boom = await failure('boom');
    expect(boom).toBeInstanceOf(OpenAI.InternalServerError);
    expect(boom.status).toBe(500);
    expect(boom.type).toBe('server_error');
    const busy = await failure('busy');
    expect(busy).toBeInstanceOf(OpenAI.InternalServerError);
    expect(busy.status).toBe(503);
  });

  it('lets a step override status, message and headers', async () => {
    const error = await failure('teapot');
    expect(error.status).toBe(418);
    expect(error.message).toBe('418 I am a teapot.');
    expect(error.headers?.get('x-brewed')).toBe('yes');
  });

  it('retries past two 429s and succeeds; the journal shows all three attempts', async () => {
    const completion = await client('twice_limited_fast', { maxRetries: 2 }).chat.completions.create(ask);
    expect(completion.choices[0]!.message.content).toBeTruthy();
    const entries = await journal('twice_limited_fast');
    expect(entries.map((e) => e.status)).toEqual([429, 429, 200]);
    expect(entries.every((e) => e.scenario === 'twice_limited_fast')).toBe(true);
  });

  it('gives up with RateLimitError when the retries run out', async () => {
    const error = await client('twice_limited_fast', { maxRetries: 1, session: 'out-of-retries' })
      .chat.completions.create(ask)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((await journal('out-of-retries')).map((e) => e.status)).toEqual([429, 429]);
  });
});

describe('scenario faults through the openai SDK', () => {
  it('a stream cut after two chunks surfaces as an error after two content deltas', async () => {
    const stream = await client('cut').chat.completions.create({ ...ask, stream: true });
    const deltas: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(deltas).toHaveLength(2);
  });

  it('an in-stream error surfaces as APIError with the style envelope after two deltas', async () => {
    const stream = await client('errored').chat.completions.create({ ...ask, stream: true });
    const deltas: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('Overloaded mid-stream.');
    expect(deltas).toHaveLength(2);
  });

  it('a responses stream cut after two chunks surfaces as an error after two text deltas', async () => {
    const stream = await client('cut').responses.create({ model: 'gpt-4o-mini', input: 'Tell me a long story.', stream: true });
    const deltas: string[] = [];
    const error = await (async () => {
      for await (const event of stream) if (event.type === 'response.output_text.delta') deltas.push(event.delta);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(deltas).toHaveLength(2);
  });

  it('a responses stream error surfaces as APIError after two text deltas', async () => {
    const stream = await client('errored').responses.create({ model: 'gpt-4o-mini', input: 'Tell me a long story.', stream: true });
    const deltas: string[] = [];
    const error = await (async () => {
      for await (const event of stream) if (event.type === 'response.output_text.delta') deltas.push(event.delta);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('Overloaded mid-stream.');
    expect(deltas).toHaveLength(2);
  });

  it('a malformed body makes the SDK fail to parse it', async () => {
    const error = await client('broken_json').chat.completions.create(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyntaxError);
  });

  it('a reset surfaces as APIConnectionError and is journaled with status 0', async () => {
    const error = await client('dropped').chat.completions.create(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIConnectionError);
    expect((await journal('dropped')).map((e) => [e.status, e.scenario])).toEqual([[0, 'dropped']]);
  });

  it('the stream faults leave a whole (non-stream) reply alone', async () => {
    const completion = await client('cut').chat.completions.create(ask);
    expect(completion.choices[0]!.finish_reason).toBe('stop');
  });
});
