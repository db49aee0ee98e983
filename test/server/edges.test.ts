// The edges every endpoint shares: request ids, CORS, body limits, unknown paths, and client
// mistakes answered 4xx in the envelope, naming the field, never 500.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ bodyLimit: '2kb' });
});
afterAll(() => server.close());

function post(path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json', ...headers },
    body,
  });
}

interface OpenAIError {
  error: { message: string; type: string; param: string | null; code: string | null };
}

describe('client mistakes', () => {
  it('answers invalid JSON with 400 in the envelope', async () => {
    const response = await post('/v1/chat/completions', '{"model": "gpt-4o-mini", ');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = (await response.json()) as OpenAIError;
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.code).toBe('invalid_json');
  });

  it('names a missing field', async () => {
    const response = await post('/v1/chat/completions', JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as OpenAIError;
    expect(body.error.param).toBe('model');
    expect(body.error.message).toContain("'model'");
  });

  it('names a nested field of the wrong type', async () => {
    const response = await post('/v1/chat/completions', JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'robot', content: 'hi' }] }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as OpenAIError).error.param).toBe('messages[0].role');
  });

  it('refuses a body that is not an object', async () => {
    const response = await post('/v1/chat/completions', '[1, 2, 3]');
    expect(response.status).toBe(400);
    expect(((await response.json()) as OpenAIError).error.message).toContain('JSON object');
  });

  it('refuses JSON that is neither an object nor an array, as invalid JSON', async () => {
    const response = await post('/v1/chat/completions', '"just a string"');
    expect(response.status).toBe(400);
    const body = (await response.json()) as OpenAIError;
    expect(body.error.code).toBe('invalid_json');
    expect(body.error.message).toContain('only supports object and array');
  });

  it('reads an empty JSON body as an object without fields, naming the first missing one', async () => {
    const response = await post('/v1/chat/completions', '');
    expect(response.status).toBe(400);
    expect(((await response.json()) as OpenAIError).error.param).toBe('model');
  });

  it('reads UTF-8 text under any spelling of the charset, and a compressed body', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'héllo 🌊 [[[{{{' }] });
    for (const type of ['application/json; charset=UTF-8', 'application/json;charset="utf8"', 'application/json']) {
      const response = await post('/v1/chat/completions', body, { 'content-type': type, 'x-mock-session': 'charset' });
      expect(response.status, type).toBe(200);
    }
    const zipped = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-mock-session': 'charset' },
      body: gzipSync(body),
    });
    expect(zipped.status).toBe(200);
    const journal = (await (await server.admin('/requests?session=charset')).json()) as { requests: Array<{ body: { messages: Array<{ content: string }> } }> };
    expect(journal.requests.map((e) => e.body.messages[0]!.content)).toEqual(Array(4).fill('héllo 🌊 [[[{{{'));
  });

  it('tells nesting from brackets inside strings: 129 levels are refused, 1,000 brackets in a text are not', async () => {
    const deep = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], metadata: JSON.parse(`${'['.repeat(128)}${']'.repeat(128)}`) });
    const refused = await post('/v1/chat/completions', deep);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as OpenAIError).error.message).toContain('nests deeper than 128 levels');
    const shallow = await post('/v1/chat/completions', JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: '['.repeat(1000) }] }));
    expect(shallow.status).toBe(200);
  });

  it('refuses a tool_choice naming a tool that is not declared', async () => {
    const response = await post(
      '/v1/chat/completions',
      JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], tool_choice: { type: 'function', function: { name: 'ghost' } } }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as OpenAIError).error.param).toBe('tool_choice');
  });

  it('answers a body over the limit with 413, announced or streamed', async () => {
    const big = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(4096) }] });
    const announced = await post('/v1/chat/completions', big);
    expect(announced.status).toBe(413);
    expect(((await announced.json()) as OpenAIError).error.code).toBe('request_too_large');
    const chunked = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('checks the key before the body', async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' });
    expect(response.status).toBe(401);
    expect(((await response.json()) as OpenAIError).error.code).toBe('invalid_api_key');
  });
});

describe('every response', () => {
  it('carries a request id, also on errors', async () => {
    const ok = await fetch(`${server.url}/v1/models`, { headers: { authorization: 'Bearer sk-test' } });
    const failed = await fetch(`${server.url}/v1/models`);
    expect(ok.headers.get('x-request-id')).toMatch(/^req_/);
    expect(failed.status).toBe(401);
    expect(failed.headers.get('x-request-id')).toMatch(/^req_/);
    expect(failed.headers.get('x-request-id')).not.toBe(ok.headers.get('x-request-id'));
  });

  it('answers an unknown path with 404 naming it', async () => {
    const response = await post('/v1/nowhere', '{}');
    expect(response.status).toBe(404);
    const body = (await response.json()) as OpenAIError;
    expect(body.error.message).toContain('/v1/nowhere');
  });

  it('answers CORS preflights with the headers the SDKs send', async () => {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key,anthropic-version,content-type,x-stainless-os',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-allow-headers')).toContain('anthropic-version');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    const actual = await fetch(`${server.url}/v1/models`, { headers: { authorization: 'Bearer k', origin: 'http://localhost:5173' } });
    expect(actual.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('binds to the loopback address by default', () => {
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
  });
});
