// A client may pipeline HTTP/1.1 requests: send several on one connection before any answer. Each
// is answered, in order, whichever path serves it (a plain chat hit, a stream, the Koa app built at
// its first request, a door whose module loads at its first request).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const post = (path: string, body: unknown): string => {
  const text = JSON.stringify(body);
  return `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer k\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
};
const chat = (content: string, stream = false) => post('/v1/chat/completions', { model: 'gpt-4o-mini', stream, messages: [{ role: 'user', content }] });

describe('pipelined requests on one connection', () => {
  it('are each answered, in order', async () => {
    const requests = [
      chat('first'),
      'GET /v1/models HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer k\r\n\r\n',
      post('/v1/embeddings', { model: 'text-embedding-3-small', input: 'second' }),
      chat('third', true),
      chat('fourth'),
    ];
    const socket = connect(server.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.write(requests.join(''));
    const answers = () => text.split(/(?=HTTP\/1\.1 \d{3} )/).filter((part) => part.startsWith('HTTP/1.1'));
    await expect.poll(() => answers().length, { timeout: 10_000 }).toBe(requests.length);
    socket.destroy();
    const [first, models, embeddings, stream, fourth] = answers();
    expect(answers().map((answer) => answer.slice(0, 12))).toEqual(Array(requests.length).fill('HTTP/1.1 200'));
    expect(first).toContain('"object":"chat.completion"');
    expect(models).toContain('"object":"list"');
    expect(embeddings).toContain('"object":"embedding"');
    expect(stream).toContain('"object":"chat.completion.chunk"');
    expect(fourth).toContain('"object":"chat.completion"');
  });
});
