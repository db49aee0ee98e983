// A JSON body's text and bytes as the reader keeps them: a large one is read into a slab and
// decoded whole, a small or a very large one a chunk at a time; all three give the text a
// streaming UTF-8 decoder gives, malformed bytes and a byte order mark alike. A body that came
// with its headers is taken as it is, not read as a stream.
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { describe, expect, it } from 'vitest';
import { readWireTextAndChunks } from '../../src/server/wire-body.js';

const MARK = Buffer.from([0xef, 0xbb, 0xbf]);
/** Characters of one to four bytes, a lone continuation byte, an overlong form and a cut sequence. */
const AWKWARD = [Buffer.from('{"a":"plain é € 📦 '), Buffer.from([0x80, 0xc0, 0xaf, 0xe2, 0x82]), Buffer.from(' end"}')];

/** A body of about `bytes`, awkward bytes throughout, cut into chunks of `chunk` bytes. */
function body(bytes: number, mark: boolean): Buffer {
  const parts: Buffer[] = mark ? [MARK] : [];
  for (let size = 0; size < bytes; size += parts.at(-1)!.length + parts.at(-2)!.length) parts.push(Buffer.from(`"é€📦 ${size}"`), Buffer.from([0x80, 0xe2, 0x82]));
  return Buffer.concat([...parts, ...AWKWARD]);
}

async function read(bytes: Buffer, chunk: number): Promise<{ text: string; chunks?: Buffer[] }> {
  const req = Object.assign(new EventEmitter(), { destroyed: false }) as unknown as IncomingMessage;
  const reading = readWireTextAndChunks(req, 64 * 1024 * 1024, 1024 * 1024);
  // The bytes come a turn later, as a socket's do: this stand-in, unlike a request, keeps none until read.
  await new Promise((resolve) => setImmediate(resolve));
  for (let at = 0; at < bytes.length; at += chunk) req.emit('data', Buffer.from(bytes.subarray(at, at + chunk)));
  req.emit('end');
  return reading;
}

function streamed(bytes: Buffer): string {
  const decoder = new StringDecoder('utf8');
  const text = decoder.write(bytes) + decoder.end();
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

describe('a JSON body read from the wire', () => {
  it('decodes as a streaming decoder does, small, large or past the journal bound, cut anywhere', async () => {
    for (const size of [1000, 100_000, 1_500_000]) {
      for (const mark of [false, true]) {
        const bytes = body(size, mark);
        for (const chunk of [65_536, 7_777]) {
          const kept = await read(bytes, chunk);
          expect(kept.text).toBe(streamed(bytes));
          if (size > 1024 * 1024) expect(kept.chunks).toBeUndefined();
          else expect(Buffer.concat(kept.chunks!).equals(bytes)).toBe(true);
        }
      }
    }
  });
});

describe("a body that came in its headers' read", () => {
  it('is taken from the request as it is, without reading it as a stream', async () => {
    const text = JSON.stringify({ messages: [{ role: 'user', content: 'é'.repeat(300) }] });
    const seen = await new Promise<{ text: string; listened: boolean; flowing: boolean | null }>((resolve, reject) => {
      const server = createServer((req, res) => {
        const on = req.on.bind(req);
        let listened = false;
        req.on = ((event: string, listener: (...args: unknown[]) => void) => {
          if (event === 'data') listened = true;
          return on(event, listener);
        }) as typeof req.on;
        readWireTextAndChunks(req, 1024 * 1024, 1024 * 1024).then(({ text: read }) => {
          resolve({ text: read, listened, flowing: req.readableFlowing });
          res.end();
        }, reject);
      });
      server.listen(0, '127.0.0.1', () => {
        const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
        socket.on('close', () => server.close());
        socket.resume();
        // The request and its body in one write, as an SDK's small request mostly comes.
        socket.end(`POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
      });
    });
    expect(seen.text).toBe(text);
    expect(seen.listened).toBe(false);
    expect(seen.flowing).toBe(null);
  });
});
