// The responses style pinned byte for byte: the whole response object and the typed event
// stream of text plus a function call, as WIRE.md section 2 describes them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { startGoldenServer, transcript } from './golden.js';

let server: TestServer;
beforeAll(async () => {
  server = await startGoldenServer();
});
afterAll(() => server.close());

async function post(body: unknown, session: string): Promise<Response> {
  return fetch(`${server.url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-golden', 'content-type': 'application/json', 'x-mock-session': session },
    body: JSON.stringify(body),
  });
}

it('answers the whole response byte for byte', async () => {
  const response = await post({ model: 'gpt-4o-mini', input: 'golden' }, 'golden-whole');
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await response.text()).toBe(transcript('responses.json').trimEnd());
});

it('streams text and a function call byte for byte', async () => {
  const response = await post(
    {
      model: 'gpt-4o-mini',
      stream: true,
      input: 'forecast please',
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false }],
    },
    'golden-tool',
  );
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(await response.text()).toBe(transcript('responses-tool-stream.sse'));
});
