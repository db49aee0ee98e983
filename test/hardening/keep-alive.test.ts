// A refused body leaves its keep-alive connection usable: after a gzip bomb's 413 the next request
// on the same connection is answered (or the connection is closed cleanly with `connection: close`,
// so the client retries on a new one).
import { Agent, request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
// One socket: the second request can only go where the first went.
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  server = await startTestServer({ bodyLimit: '1mb' });
});
afterAll(async () => {
  agent.destroy();
  await server.close();
});

interface Answer {
  status: number;
  connection: string | undefined;
  socket: object;
}

function post(body: Buffer, { path = '/v1/chat/completions', ...headers }: Record<string, string>): Promise<Answer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, agent, headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json', ...(headers['transfer-encoding'] ? {} : { 'content-length': String(body.length) }), ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, socket: req.socket! }));
    });
    req.on('error', reject);
    req.setTimeout(3000, () => req.destroy(new Error('no answer within 3 s on this connection')));
    req.end(body);
  });
}

const chat = Buffer.from(JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'after the bomb' }] }));

describe('keep-alive after a refused body', () => {
  it.each([
    ['a gzip bomb', () => gzipSync(Buffer.alloc(8 * 1024 * 1024, ' ')), { 'content-encoding': 'gzip' }],
    ['a chunked gzip bomb', () => gzipSync(Buffer.alloc(8 * 1024 * 1024, ' ')), { 'content-encoding': 'gzip', 'transfer-encoding': 'chunked' }],
    ['a counted body over the limit', () => Buffer.alloc(2 * 1024 * 1024, ' '), {}],
    ['a multipart gzip bomb', () => gzipSync(Buffer.concat([Buffer.from('--b\r\ncontent-disposition: form-data; name="prompt"\r\n\r\n'), Buffer.alloc(8 * 1024 * 1024, 'a')])), { 'content-encoding': 'gzip', 'content-type': 'multipart/form-data; boundary=b', path: '/v1/videos' }],
    ['a multipart file over the limit', () => Buffer.concat([Buffer.from('--b\r\ncontent-disposition: form-data; name="input_reference"; filename="a.png"\r\n\r\n'), Buffer.alloc(2 * 1024 * 1024, 'a')]), { 'content-type': 'multipart/form-data; boundary=b', 'transfer-encoding': 'chunked', path: '/v1/videos' }],
  ] as const)('%s: refused, then the next request on the connection is answered', async (_, body, headers) => {
    for (let round = 0; round < 2; round++) {
      const bomb = await post(body(), headers);
      expect([400, 413, 415]).toContain(bomb.status);
      const next = await post(chat, {});
      expect(next.status).toBe(200);
      if (bomb.connection !== 'close') expect(next.socket).toBe(bomb.socket);
    }
  });
});
