// The messages style pinned byte for byte: the whole message and the typed event stream of text
// plus a tool_use block, as WIRE.md's messages section describes them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { startGoldenServer, transcript } from './golden.js';

let server: TestServer;
beforeAll(async () => {
  server = await startGoldenServer();
});
afterAll(() => server.close());

async function post(body: unknown, session: string): Promise<Response> {
  return fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': 'sk-golden', 'anthropic-version': '2023-06-01', 'content-type': 'application/json', 'x-mock-session': session },
    body: JSON.stringify(body),
  });
}

const MODEL = 'claude-sonnet-4-5';

it('answers the whole message byte for byte', async () => {
  const response = await post({ model: MODEL, max_tokens: 256, messages: [{ role: 'user', content: 'golden' }] }, 'golden-whole');
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await response.text()).toBe(transcript('messages.json').trimEnd());
});

it('streams text and a tool_use block byte for byte', async () => {
  const response = await post(
    {
      model: MODEL,
      max_tokens: 256,
      stream: true,
      messages: [{ role: 'user', content: 'forecast please' }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    },
    'golden-tool',
  );
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(await response.text()).toBe(transcript('messages-tool-stream.sse'));
});
