// The shipped scenarios meet @anthropic-ai/sdk: its error classes (529 overloaded included), its
// retries, and its stream reader.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';

// rate_limit_then_ok as shipped, with a retry-after the SDK honours in milliseconds.
const FAST = `
scenarios:
  - name: rate_limit_then_ok_fast
    steps:
      - { error: rate_limit, times: 2, headers: { retry-after-ms: "10" } }
      - pass
`;

let server: TestServer;

const client = (scenario: string, maxRetries = 0) =>
  new Anthropic({
    baseURL: server.url,
    apiKey: 'sk-test',
    maxRetries,
    defaultHeaders: { 'x-mock-scenario': scenario, 'x-mock-session': `anthropic-${scenario}` },
  });

const ask = { model: 'claude-sonnet-4-6', max_tokens: 400, messages: [{ role: 'user' as const, content: 'Tell me a long story.' }] };

async function failure(scenario: string): Promise<InstanceType<typeof Anthropic.APIError>> {
  const error = await client(scenario).messages.create(ask).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Anthropic.APIError);
  return error as InstanceType<typeof Anthropic.APIError>;
}

beforeAll(async () => {
  server = await startTestServer({ scenarioFiles: { ...shippedScenarioFiles(), 'fast.yaml': FAST } });
});
afterAll(() => server.close());

describe('shipped error scenarios through the Anthropic SDK', () => {
  it('rate_limit raises RateLimitError with retry-after and the anthropic-ratelimit headers', async () => {
    const error = await failure('rate_limit');
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect(error.status).toBe(429);
    expect(error.type).toBe('rate_limit_error');
    expect(error.headers?.get('retry-after')).toBe('1');
    expect(error.headers?.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    expect(error.requestID).toMatch(/^req_/);
    expect(error.error).toMatchObject({ type: 'error', request_id: error.requestID });
  });

  it('each kind raises its class with the messages-style type, overloaded as 529', async () => {
    const cases = [
      ['invalid_request', Anthropic.BadRequestError, 400, 'invalid_request_error'],
      ['unauthorized', Anthropic.AuthenticationError, 401, 'authentication_error'],
      ['forbidden', Anthropic.PermissionDeniedError, 403, 'permission_error'],
      ['not_found', Anthropic.NotFoundError, 404, 'not_found_error'],
      ['server_error', Anthropic.InternalServerError, 500, 'api_error'],
      ['overloaded', Anthropic.OverloadedError, 529, 'overloaded_error'],
    ] as const;
    for (const [scenario, errorClass, status, type] of cases) {
      const error = await failure(scenario);
      expect(error, scenario).toBeInstanceOf(errorClass);
      expect(error.status, scenario).toBe(status);
      expect(error.type, scenario).toBe(type);
    }
  });

  it('with retries on, gets through two 429s; the journal shows all three attempts', async () => {
    const message = await client('rate_limit_then_ok_fast', 2).messages.create(ask);
    expect(message.content[0]!.type).toBe('text');
    const response = await server.admin('/requests?session=anthropic-rate_limit_then_ok_fast');
    const { requests } = (await response.json()) as { requests: Array<{ status: number; style: string; scenario: string }> };
    expect(requests.map((e) => [e.status, e.style, e.scenario])).toEqual([
      [429, 'messages', 'rate_limit_then_ok_fast'],
      [429, 'messages', 'rate_limit_then_ok_fast'],
      [200, 'messages', 'rate_limit_then_ok_fast'],
    ]);
  });
});

describe('shipped stream faults through the Anthropic SDK', () => {
  async function streamed(scenario: string) {
    const stream = client(scenario).messages.stream(ask);
    const deltas: string[] = [];
    stream.on('text', (text) => deltas.push(text));
    const error = await stream.finalMessage().catch((e: unknown) => e);
    return { deltas, error };
  }

  it('cut_stream: the stream fails after three text deltas', async () => {
    const { deltas, error } = await streamed('cut_stream');
    expect(error).toBeInstanceOf(Error);
    expect(deltas).toHaveLength(3);
  });

  it('stream_error: an error event after three deltas raises APIError with its type', async () => {
    const { deltas, error } = await streamed('stream_error');
    expect(error).toBeInstanceOf(Anthropic.APIError);
    const apiError = error as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.type).toBe('api_error');
    expect(apiError.requestID).toMatch(/^req_/);
    expect(apiError.error).toMatchObject({ request_id: apiError.requestID });
    expect(deltas).toHaveLength(3);
  });
});
