// The generate-content style pinned byte for byte: the whole response, the `?alt=sse` stream of a
// text plus a functionCall part, and the JSON-array stream (WIRE.md's generate-content section).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { startGoldenServer, transcript } from './golden.js';

let server: TestServer;
beforeAll(async () => {
  server = await startGoldenServer();
});
afterAll(() => server.close());

async function post(action: string, body: unknown, session: string): Promise<Response> {
  return fetch(`${server.url}/v1beta/models/gemini-2.5-flash:${action}`, {
    method: 'POST',
    headers: { 'x-goog-api-key': 'golden-key', 'content-type': 'application/json', 'x-mock-session': session },
    body: JSON.stringify(body),
  });
}

const ask = (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] });

it('answers the whole response byte for byte', async () => {
  const response = await post('generateContent', ask('golden'), 'golden-whole');
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await response.text()).toBe(transcript('generate-content.json').trimEnd());
});

it('streams text and a functionCall part as SSE byte for byte', async () => {
  const tools = [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] }];
  const response = await post('streamGenerateContent?alt=sse', { ...ask('forecast please'), tools }, 'golden-tool');
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(await response.text()).toBe(transcript('generate-content-tool-stream.sse'));
});

it('streams as one JSON array without alt=sse, byte for byte', async () => {
  const response = await post('streamGenerateContent', ask('golden'), 'golden-array');
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await response.text()).toBe(transcript('generate-content-stream.json'));
});
