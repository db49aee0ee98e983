// A paced stream's events go on the socket as chunks the writer frames itself (server/chunk-sink.ts):
// each chunk's size must be its bytes, not its characters, over HTTP/1.1, and HTTP/2 (which has no
// chunks) must carry the same events.
import { connect as connectHttp2 } from 'node:http2';
import { connect as connectTcp } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const TEXT = 'Ünïcödé, 日本語 and 🚀: one piece at a time.';
const FIXTURE = `chat:\n  - match: { contains: "paced" }\n    reply: { text: "${TEXT}" }\n    stream: { chunk_by: char, first_chunk_ms: 1, chunk_ms: 1 }\n`;
const BODY = JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'paced please' }] });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'paced.yaml': FIXTURE } });
});
afterAll(() => server.close());

/** The content of an SSE body's chat chunks, joined. */
function streamedText(sse: string): string {
  return sse
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => (JSON.parse(line.slice(6)) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
    .join('');
}

/** The raw HTTP/1.1 answer, read to its last chunk (the connection stays open: the stream says keep-alive). */
function rawAnswer(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(server.port, '127.0.0.1');
    const parts: Buffer[] = [];
    socket.on('data', (part: Buffer) => {
      parts.push(part);
      const answer = Buffer.concat(parts);
      if (!answer.toString('latin1', answer.length - 7).endsWith('\r\n0\r\n\r\n')) return;
      socket.destroy();
      resolve(answer);
    });
    socket.on('error', reject);
    const head = `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer k\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(BODY)}\r\n\r\n`;
    // Not half-closed: a client that ends its side is one that left.
    socket.write(head + BODY);
  });
}

/** A chunked body, read strictly: every size line must match the bytes that follow it. */
function unchunked(body: Buffer): { text: string; chunks: number } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.toString('latin1', at, lineEnd), 16);
    at = lineEnd + 2;
    if (size === 0) {
      expect(body.subarray(at).toString('latin1')).toBe('\r\n');
      return { text: Buffer.concat(parts).toString('utf8'), chunks: parts.length };
    }
    parts.push(body.subarray(at, at + size));
    expect(body.toString('latin1', at + size, at + size + 2)).toBe('\r\n');
    at += size + 2;
  }
}

describe('paced streams on the wire', () => {
  it('reach the SDK whole, each chunk sized in bytes', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'paced please' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(TEXT);

    const answer = await rawAnswer();
    const headEnd = answer.indexOf('\r\n\r\n');
    expect(answer.toString('latin1', 0, headEnd)).toMatch(/transfer-encoding: chunked/i);
    const { text: sse, chunks } = unchunked(answer.subarray(headEnd + 4));
    expect(streamedText(sse)).toBe(TEXT);
    // Paced: the events come in several chunks (events already due when one is written share it).
    expect(chunks).toBeGreaterThan(1);
  });

  it('carry the same events over HTTP/2', async () => {
    const session = connectHttp2(server.url);
    try {
      const sse = await new Promise<string>((resolve, reject) => {
        const stream = session.request({ ':method': 'POST', ':path': '/v1/chat/completions', 'content-type': 'application/json', authorization: 'Bearer k' });
        let text = '';
        stream.setEncoding('utf8');
        stream.on('data', (part: string) => (text += part));
        stream.on('end', () => resolve(text));
        stream.on('error', reject);
        stream.end(BODY);
      });
      expect(streamedText(sse)).toBe(TEXT);
    } finally {
      session.close();
    }
  });
});
