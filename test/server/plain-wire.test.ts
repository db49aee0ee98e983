// A plain hit writes its own head and body to the socket (server/answer-head.ts), so what Node's
// response does for a connection is the plain path's to keep: the same bytes as Koa's answer
// (headers' order, Date, Connection and Keep-Alive; Koa alone capitalizes Content-Length), a
// connection kept open for the next request or closed when the client asked, and pipelined
// answers in their order.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = `
chat:
  - match: { contains: "parcel" }
    reply: { text: "Your parcel left the depot this morning. Ünïcödé ✓." }
`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES } });
});
afterAll(() => server.close());

/** The header that sends a request Koa's way without changing its answer. */
const THROUGH_KOA = 'content-encoding: identity\r\n';

function chat(session: string, { version = '1.1', extra = '', content = 'Where is my parcel?' } = {}): string {
  const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });
  return `POST /v1/chat/completions HTTP/${version}\r\nhost: 127.0.0.1\r\nauthorization: Bearer k\r\ncontent-type: application/json\r\nx-mock-session: ${session}\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** `chat`, asked as a stream (the test server's streams are unpaced: the whole stream comes at once). */
function streamed(session: string, options: Parameters<typeof chat>[1] = {}): string {
  return chat(session, { ...options, content: 'Where is my parcel? (stream)' })
    .replace('"messages"', '"stream":true,"messages"')
    .replace(/content-length: (\d+)/, (_, n: string) => `content-length: ${Number(n) + 14}`);
}

interface Exchange {
  /** The answers' bytes, ids and times masked. */
  text: string;
  answers: number;
  /** Whether the server closed the connection rather than answer one more request on it. */
  closed: boolean;
}

/**
 * Asked on the same connection after requests that leave it open: its answer is the event that
 * says the server kept the connection (a request after `Connection: close` is a parse error, so a
 * connection the server should close is waited on for its close, to the test's deadline).
 */
const PROBE = 'GET /__admin/health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n';

/** `requests` on one connection, and the probe after them unless it `closes`; resolves with the answers before the probe's once it is answered or the server closed. */
function exchange(requests: string, answers: number, closes: boolean): Promise<Exchange> {
  return new Promise((done) => {
    const socket = connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const heads = () => [...Buffer.concat(chunks).toString('utf8').matchAll(/HTTP\/1\.1 \d{3} /g)];
    const finish = (closed: boolean) => {
      socket.destroy();
      const all = Buffer.concat(chunks).toString('utf8');
      const found = heads();
      const masked = all
        .slice(0, found.length > answers ? found[answers]!.index : all.length)
        .replace(/req_[0-9a-f]+/g, 'req_')
        .replace(/chatcmpl-[0-9a-f]+/g, 'chatcmpl-')
        .replace(/"created":\d+/g, '"created":0')
        .replace(/\r\nDate: [^\r]+/g, '\r\nDate: (a date)')
        // Koa spells its Content-Length so; the plain hit's own head is checked apart below.
        .replace(/\r\nContent-Length: /g, '\r\ncontent-length: ');
      done({ text: masked, answers: Math.min(found.length, answers), closed });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // The probe's answer has begun: every answer before it is whole, and the connection was kept.
      if (heads().length > answers) finish(false);
    });
    socket.on('error', () => {});
    socket.once('close', () => finish(true));
    socket.write(closes ? requests : requests + PROBE);
  });
}

const cases: [string, (session: string, koa: string) => string, number, boolean][] = [
  ['two requests kept alive', (s, k) => chat(s, { extra: k }) + chat(s, { extra: k }), 2, false],
  ['three pipelined requests, the second of another session', (s, k) => chat(s, { extra: k }) + chat(`${s}-b`, { extra: k }) + chat(s, { extra: `${k}origin: https://app.example\r\n` }), 3, false],
  ['a request asking to close', (s, k) => chat(s, { extra: `${k}connection: close\r\n` }), 1, true],
  ['a kept-alive request, then one asking to close', (s, k) => chat(s, { extra: k }) + chat(s, { extra: `${k}connection: close\r\n` }), 2, true],
  ['an HTTP/1.0 request', (s, k) => chat(s, { version: '1.0', extra: k }), 1, true],
  ['an HTTP/1.0 request kept alive, then one not', (s, k) => chat(s, { version: '1.0', extra: `${k}connection: keep-alive\r\n` }) + chat(s, { version: '1.0', extra: k }), 2, true],
  ['a request and a stream pipelined', (s, k) => chat(s, { extra: k }) + streamed(s, { extra: k }), 2, false],
  // A stream's head is spelled by the plain hit itself (answer-head.ts' writeStreamHead).
  ['a stream, then a request', (s, k) => streamed(s, { extra: `${k}origin: https://app.example\r\n` }) + chat(s, { extra: k }), 2, false],
  ['a stream asking to close', (s, k) => streamed(s, { extra: `${k}connection: close\r\n` }), 1, true],
  ['a stream of an HTTP/1.0 client', (s, k) => streamed(s, { version: '1.0', extra: k }), 1, true],
];

describe('a plain hit on the wire, beside the same request through Koa', () => {
  for (const [name, requests, answers, closes] of cases) {
    it(`gives the same bytes and keeps or closes the connection alike: ${name}`, async () => {
      const slug = name.replace(/\W+/g, '-');
      const plain = await exchange(requests(`plain-${slug}`, ''), answers, closes);
      const koa = await exchange(requests(`plain-${slug}`.replace('plain', 'koa'), THROUGH_KOA), answers, closes);
      expect(plain.answers).toBe(answers);
      expect(plain.closed).toBe(closes);
      expect(koa.closed).toBe(closes);
      expect(plain.text).toBe(koa.text);
      // Whole in an answer, in pieces in a stream.
      expect(plain.text).toContain('Ün');
    });
  }

  it('answers a request on a connection kept open by the last one', async () => {
    const socket = connect(server.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.write(chat('kept'));
    await expect.poll(() => text.includes('Your parcel'), { timeout: 10_000 }).toBe(true);
    const bodyAt = text.indexOf('\r\n\r\n') + 4;
    const head = text
      .slice(0, bodyAt)
      .replace(/req_[0-9a-f]+/g, 'req_')
      .replace(/fixture:\S+\//, 'fixture:')
      .replace(/\r\nDate: [^\r]+/, '\r\nDate: (a date)');
    expect(head).toBe(
      [
        'HTTP/1.1 200 OK',
        'access-control-allow-origin: *',
        'access-control-expose-headers: *, x-mock-source, x-request-id, request-id, retry-after, mcp-session-id',
        'vary: origin',
        'x-request-id: req_',
        'request-id: req_',
        'x-mock-source: fixture:chat.yaml#0',
        'content-type: application/json; charset=utf-8',
        `content-length: ${Buffer.byteLength(text.slice(bodyAt))}`,
        'Date: (a date)',
        'Connection: keep-alive',
        'Keep-Alive: timeout=65',
        '',
        '',
      ].join('\r\n'),
    );
    text = '';
    socket.write(chat('kept'));
    await expect.poll(() => text.includes('Your parcel'), { timeout: 10_000 }).toBe(true);
    socket.destroy();
  });
});
