// HTTP/2 cleartext with prior knowledge on the mock's one port, beside HTTP/1.1 (SPEC 23).
import { connect as connectHttp2, type ClientHttp2Session } from 'node:http2';
import { connect as connectTcp } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

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
