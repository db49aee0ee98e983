// HTTP/2 cleartext with prior knowledge on the mock's one port, beside HTTP/1.1 (SPEC 23).
import { connect as connectHttp2, type ClientHttp2Session } from 'node:http2';
import { connect as connectTcp, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer | undefined;
let relay: TcpServer | undefined;
afterEach(async () => {
  relay?.close();
  relay = undefined;
  await server?.close();
  server = undefined;
});

/** A relay to `port` that sends a connection's first `split` bytes, then the rest 50 ms later. */
function splittingRelay(port: number, split: number): Promise<string> {
  relay = createTcpServer((client) => {
    const upstream = connectTcp(port, '127.0.0.1');
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.once('data', (first: Buffer) => {
      client.pause();
      upstream.write(first.subarray(0, split));
      setTimeout(() => {
        upstream.write(first.subarray(split));
        client.pipe(upstream);
      }, 50);
    });
  });
  return new Promise((resolve) => relay!.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(relay!.address() as { port: number }).port}`)));
}

function post(session: ClientHttp2Session, path: string, body: unknown): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/json', authorization: 'Bearer k' });
    let headers: Record<string, unknown> = {};
    let text = '';
    stream.on('response', (received) => (headers = received));
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (text += chunk));
    stream.on('end', () => resolve({ status: Number(headers[':status']), headers, text }));
    stream.on('error', reject);
    stream.end(JSON.stringify(body));
  });
}

const CHAT = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello there' }] };

describe('HTTP/2 cleartext on the same port', () => {
  it('answers a connection opening with the HTTP/2 preface, whole and streamed, and HTTP/1.1 beside it', async () => {
    server = await startTestServer();
    const session = connectHttp2(server.url);
    try {
      const whole = await post(session, '/v1/chat/completions', CHAT);
      expect(whole.status).toBe(200);
      const content = JSON.parse(whole.text).choices[0].message.content as string;
      expect(content.length).toBeGreaterThan(0);
      const streamed = await post(session, '/v1/chat/completions', { ...CHAT, stream: true });
      expect(streamed.status).toBe(200);
      expect(streamed.headers['content-type']).toContain('text/event-stream');
      const joined = streamed.text
        .split('\n')
        .filter((line) => line.startsWith('data: {'))
        .map((line) => JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? '')
        .join('');
      expect(joined).toBe(content);
      const http1 = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body: JSON.stringify(CHAT) });
      expect(((await http1.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe(content);
    } finally {
      session.close();
    }
  });

  it('answers a connection whose preface comes in two reads', async () => {
    server = await startTestServer();
    // "PRI * HTTP/2.0\r\n" first: the parser has read part of the preface before it can tell.
    const session = connectHttp2(await splittingRelay(server.port, 16));
    try {
      const whole = await post(session, '/v1/chat/completions', CHAT);
      expect(whole.status).toBe(200);
      expect(JSON.parse(whole.text).choices[0].message.content.length).toBeGreaterThan(0);
    } finally {
      session.close();
    }
  });

  it('answers bytes of another protocol after a request on the same connection as HTTP/1.1 does, with a 400', async () => {
    server = await startTestServer();
    const socket = connectTcp(server.port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(`GET /v1/models HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer k\r\n\r\n`);
    await expect.poll(() => received.includes('"object":"list"')).toBe(true);
    // A TLS handshake record's first bytes, where a second request would be.
    socket.write(Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05]));
    await closed;
    expect(received).toMatch(/HTTP\/1\.1 200[\s\S]*HTTP\/1\.1 400/);
  });

  it('closes with an HTTP/2 session and a silent connection still open', async () => {
    server = await startTestServer();
    const session = connectHttp2(server.url);
    session.on('error', () => {});
    await post(session, '/v1/chat/completions', CHAT);
    const silent = connectTcp(server.port, '127.0.0.1');
    silent.on('error', () => {});
    await new Promise((resolve) => silent.once('connect', resolve));
    const closed = new Promise((resolve) => silent.once('close', resolve));
    await server.close();
    server = undefined;
    await closed;
    expect(session.destroyed || session.closed).toBe(true);
  });
});
