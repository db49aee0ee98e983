import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { startGoldenServer, transcript } from './golden.js';

let server: TestServer;
beforeAll(async () => {
  server = await startGoldenServer();
});
afterAll(() => server.close());

async function post(body: unknown, session: string): Promise<Response> {
  return fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-golden', 'content-type': 'application/json', 'x-mock-session': session },
    body: JSON.stringify(body),
  });
}

it('streams a fixture reply byte for byte', async () => {
  const response = await post(
    { model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'golden' }] },
    'golden-stream',
  );
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(await response.text()).toBe(transcript('chat-completions-stream.sse'));
});

it('streams text and a tool call byte for byte', async () => {
  const response = await post(
    {
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'forecast please' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
    },
    'golden-tool',
  );
  expect(await response.text()).toBe(transcript('chat-completions-tool-stream.sse'));
});

it('answers the whole reply byte for byte', async () => {
  const response = await post({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'golden' }] }, 'golden-whole');
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await response.text()).toBe(transcript('chat-completions.json').trimEnd());
});
