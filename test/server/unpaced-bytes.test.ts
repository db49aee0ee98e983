// An unpaced stream's frames go out as bytes made in one buffer, which the next stream's end
// writes into again (server/whole-body.ts). What a client reads must be, byte for byte, what the
// same reply paced gives (each chunk framed as it comes due), and a stream whose bytes the socket
// has not taken yet must keep them when the next stream ends.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMERS, Framed } from '../../src/server/framers.js';
import { framedPieces } from '../../src/server/piece-frames.js';
import { endWith } from '../../src/server/whole-body.js';
import { pushSpan } from '../../src/styles/piece-events.js';
import type { PieceSpan } from '../../src/conversation/plan.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SHORT = 'A parcel that arrives damaged is "handled" in four steps, naïvely \\ and none needs a call 🎉.';
/** More chunks than one run is framed in: several runs, the later ones from within the kept split. */
const LONG = 'Keep the parcel, its box and the label “exactly” as they arrived, then open a ticket. '.repeat(12).trim();

const FIXTURES = `
chat:
  - name: short
    match: { contains: "short one" }
    reply: { text: ${JSON.stringify(SHORT)} }
    stream: { first_chunk_ms: 1, chunk_ms: 1 }
  - name: long
    match: { contains: "long one" }
    reply: { text: ${JSON.stringify(LONG)} }
    stream: { first_chunk_ms: 1, chunk_ms: 1 }
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'chat.yaml': FIXTURES } });
});
afterAll(() => server.close());

/** A stream's body as its client reads it, without the id and time that differ from one answer to the next. */
async function streamed(ask: string, latency?: string): Promise<string> {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k', ...(latency ? { 'x-mock-latency': latency } : {}) },
    body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: ask }] }),
  });
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  return bytes.toString('utf8').replace(/"id":"chatcmpl-[^"]+"/g, '"id":null').replace(/"created":\d+/g, '"created":null');
}

describe('an unpaced stream', () => {
  it.each([
    ['one run of chunks', 'the short one', SHORT],
    ['several runs of chunks', 'the long one', LONG],
  ])('sends the bytes the same reply paced sends (%s), twice over', async (_runs, ask, text) => {
    const paced = await streamed(ask);
    for (let again = 0; again < 2; again++) expect(await streamed(ask, 'none')).toBe(paced);
    const content = paced
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: {'))
      .map((frame) => (JSON.parse(frame.slice(6)) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '');
    expect(content.join('')).toBe(text);
    expect(content.length).toBeGreaterThan(20);
  });
});

/** A kept split's run of chunks, framed as the writer frames an unpaced stream's: its text, taken whole. */
function framedRun(text: string): { framed: Framed; expected: string } {
  const pieces = Object.freeze(text.match(/\S+\s*/g)!);
  const parts: PieceSpan[] = [];
  pushSpan(parts, pieces, (piece) => ({ data: { choices: [{ delta: { content: piece } }] } }));
  const run = framedPieces(parts[0]!, 0, pieces.length, FRAMERS.sse, 1)!;
  const [framed, twin] = [new Framed(), new Framed()];
  for (const each of [framed, twin]) {
    each.addJoined(run.open, run.items, run.between, run.close, run.kept);
    each.add('data: [DONE]\n\n');
  }
  return { framed, expected: twin.take() as string };
}

describe('a stream whose bytes its socket has not taken yet', () => {
  it('keeps them when the next stream ends', async () => {
    const first = framedRun('The first stream is read only once the second has ended. '.repeat(20));
    const second = framedRun('A second stream, on a connection of its own, that ends while the first waits. '.repeat(20));
    const responses: ServerResponse[] = [];
    const arrived: Array<() => void> = [];
    const http = createServer((_request: IncomingMessage, response: ServerResponse) => {
      responses.push(response);
      arrived.shift()?.();
    });
    await new Promise<void>((listening) => http.listen(0, '127.0.0.1', listening));
    const { port } = http.address() as AddressInfo;
    const ask = (): Promise<void> => new Promise((answered) => arrived.push(answered));
    try {
      // The first client does not read: what its answer sends past the kernel's buffers stays queued.
      const slow = connect(port, '127.0.0.1');
      slow.pause();
      let asked = ask();
      slow.write('GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
      await asked;
      const filler = 'x'.repeat(64 * 1024);
      const [firstResponse] = responses;
      firstResponse!.writeHead(200, { 'content-type': 'text/event-stream' });
      // Written until the socket holds some back (a response's writes are sent a tick later, together).
      let fill = 0;
      while (firstResponse!.socket!.writableLength === 0) {
        firstResponse!.write(filler);
        fill++;
        await new Promise(setImmediate);
      }
      endWith(firstResponse!, first.framed);

      asked = ask();
      const secondRead = fetch(`http://127.0.0.1:${port}/`).then((response) => response.text());
      await asked;
      responses[1]!.writeHead(200, { 'content-type': 'text/event-stream' });
      endWith(responses[1]!, second.framed);
      expect(await secondRead).toBe(second.expected);

      const chunks: Buffer[] = [];
      slow.on('data', (chunk: Buffer) => chunks.push(chunk));
      await new Promise((ended) => slow.on('end', ended).resume());
      const body = dechunked(Buffer.concat(chunks));
      expect(body.length).toBe(fill * filler.length + Buffer.byteLength(first.expected));
      expect(body.subarray(body.length - Buffer.byteLength(first.expected)).toString()).toBe(first.expected);
    } finally {
      await new Promise((closed) => http.close(closed));
    }
  });
});

/** A chunked HTTP/1.1 answer's body. */
function dechunked(answer: Buffer): Buffer {
  let at = answer.indexOf('\r\n\r\n') + 4;
  const parts: Buffer[] = [];
  for (;;) {
    const eol = answer.indexOf('\r\n', at);
    const size = Number.parseInt(answer.toString('latin1', at, eol), 16);
    if (size === 0) return Buffer.concat(parts);
    parts.push(answer.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
