// A refused body leaves its keep-alive connection usable: after a gzip bomb's 413 (small or large on
// the wire), a body over the limit, or a multipart body over the limit on a forwarding mock, the
// next request on the same connection is answered, never reset. An idle connection is the client's
// to close: the mock keeps it well past Node's 5 s default, and still stops at once when closed.
// A stream says what will happen to its connection: closed at its end when its client asked so.
import { Agent, createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let forwarding: TestServer;
let upstream: Server;
// One socket per mock: the second request can only go where the first went.
const agents = new Map<string, Agent>();

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"upstream"}'));
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  server = await startTestServer({ bodyLimit: '1mb' });
  forwarding = await startTestServer({ bodyLimit: '1mb', upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` });
});
afterAll(async () => {
  for (const agent of agents.values()) agent.destroy();
  await Promise.all([server.close(), forwarding.close()]);
  await new Promise((done) => upstream.close(done));
});

interface Answer {
  status: number;
  connection: string | undefined;
  keepAlive: string | undefined;
  socket: object;
  text: string;
}

function post(url: string, body: Buffer, { path = '/v1/chat/completions', ...headers }: Record<string, string>): Promise<Answer> {
  const { port } = new URL(url);
  if (!agents.has(url)) agents.set(url, new Agent({ keepAlive: true, maxSockets: 1 }));
  return new Promise((resolve, reject) => {
    const framing = headers['transfer-encoding'] ? {} : { 'content-length': String(body.length) };
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, agent: agents.get(url), headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json', ...framing, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, keepAlive: res.headers['keep-alive'] as string | undefined, socket: req.socket!, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    // Node resets a kept-alive socket 5 s after its last answer; an answer must come well before.
    req.setTimeout(4000, () => req.destroy(new Error('no answer within 4 s on this connection')));
    req.end(body);
  });
}

const chat = Buffer.from(JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'after the bomb' }] }));

/** 1 GB of spaces in about 1 MB of gzip: members of 64 MB each, one after the other (gzip allows it). */
function wideBomb(): Buffer {
  const member = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '), { level: 9 });
  return Buffer.concat(Array.from({ length: 16 }, () => member));
}

const multipartOver = () =>
  Buffer.concat([Buffer.from('--b\r\ncontent-disposition: form-data; name="input_reference"; filename="a.png"\r\n\r\n'), Buffer.alloc(2 * 1024 * 1024, 'a'), Buffer.from('\r\n--b--\r\n')]);

describe('keep-alive after a refused body', () => {
  it.each([
    ['a gzip bomb', () => gzipSync(Buffer.alloc(8 * 1024 * 1024, ' ')), { 'content-encoding': 'gzip' }],
    ['a gzip bomb large on the wire', wideBomb, { 'content-encoding': 'gzip' }],
    ['a chunked gzip bomb large on the wire', wideBomb, { 'content-encoding': 'gzip', 'transfer-encoding': 'chunked' }],
    ['a counted body over the limit', () => Buffer.alloc(2 * 1024 * 1024, ' '), {}],
    ['a chunked body over the limit', () => Buffer.alloc(2 * 1024 * 1024, ' '), { 'transfer-encoding': 'chunked' }],
    ['a multipart gzip bomb', () => gzipSync(Buffer.concat([Buffer.from('--b\r\ncontent-disposition: form-data; name="prompt"\r\n\r\n'), Buffer.alloc(8 * 1024 * 1024, 'a')])), { 'content-encoding': 'gzip', 'content-type': 'multipart/form-data; boundary=b', path: '/v1/videos' }],
    ['a multipart file over the limit', multipartOver, { 'content-type': 'multipart/form-data; boundary=b', 'transfer-encoding': 'chunked', path: '/v1/videos' }],
  ] as const)('%s: 413, then the next request on the connection is answered', async (_, body, headers) => {
    const bytes = body();
    for (let round = 0; round < 2; round++) {
      const bomb = await post(server.url, bytes, headers);
      expect(bomb.status, bomb.text).toBe(413);
      const next = await post(server.url, chat, {});
      expect(next.status).toBe(200);
      expect(next.socket).toBe(bomb.socket);
    }
  });

  it('a chunked multipart body over the limit on a forwarding mock: 413, then the next request is answered', async () => {
    const headers = { 'content-type': 'multipart/form-data; boundary=b', 'transfer-encoding': 'chunked', path: '/v1/videos' };
    for (let round = 0; round < 2; round++) {
      const refused = await post(forwarding.url, multipartOver(), headers);
      expect(refused.status, refused.text).toBe(413);
      expect(JSON.parse(refused.text).error.code).toBe('request_too_large');
      const next = await post(forwarding.url, chat, {});
      expect(next.status).toBe(200);
      expect(next.socket).toBe(refused.socket);
    }
  });
});

describe('idle keep-alive connections', () => {
  it('are closed by the client, not the mock: one idle past Node\'s 5 s default still serves', async () => {
    const first = await post(server.url, chat, {});
    // undici (fetch) keeps an idle socket as long as this says, less a second.
    expect(first.keepAlive).toBe('timeout=65');
    // The idle time is what is under test: Node's default would have dropped the socket at 5 s.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const second = await post(server.url, chat, {});
    expect(second.status).toBe(200);
    expect(second.socket).toBe(first.socket);
  });

  it('do not hold up close() or shutdown()', async () => {
    for (const stop of ['close', 'shutdown'] as const) {
      const mock = await startTestServer();
      const idle = await post(mock.url, chat, {});
      expect(idle.status).toBe(200);
      const closed = new Promise((resolve) => (idle.socket as Socket).once('close', resolve));
      await mock[stop]();
      await closed;
    }
  });
});

/**
 * A raw HTTP/1.1 request, and everything the mock sent until it closed the connection or `ms`
 * passed after the stream's last event.
 */
function untilClosed(url: string, body: string, headers: string, ms: number): Promise<{ text: string; closed: boolean }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    let giveUp: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      giveUp ??= text.includes('data: [DONE]')
        ? setTimeout(() => {
            socket.destroy();
            resolve({ text, closed: false });
          }, ms)
        : undefined;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ text, closed: true });
    });
    socket.write(`POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer sk-test\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${headers}\r\n${body}`);
  });
}

describe('a stream asked on a connection its client will close', () => {
  const stream = JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'a short stream' }] });

  it.each([
    ['unpaced', ''],
    ['paced', 'x-mock-latency: realistic\r\n'],
  ])('%s: says `connection: close` and closes the connection at its end', async (_, pacing) => {
    // Well below the 65 s a kept connection stays open.
    const { text, closed } = await untilClosed(server.url, stream, `connection: close\r\n${pacing}`, 10_000);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(text).toContain('data: [DONE]');
    expect(closed).toBe(true);
  });

  it('a stream on a kept connection says `connection: keep-alive` and leaves it open', async () => {
    const { text, closed } = await untilClosed(server.url, stream, '', 1_000);
    expect(text.toLowerCase()).toContain('\r\nconnection: keep-alive\r\n');
    expect(text).toContain('data: [DONE]');
    expect(closed).toBe(false);
  });
});
