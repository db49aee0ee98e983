// Large bodies forwarded at once go out a turn's bytes at a time: fetch copies a body as it sends
// it, and three hundred 300 KB bodies sent in one turn held the loop over 100 ms (the bench's
// keep-alive sessions). Each is still forwarded whole.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { relay } from '../../src/exchange/upstream/relay.js';
import { afterPoll } from '../../src/state/event-loop.js';
import { plainExchange, plainMock } from '../helpers/mock.js';

let upstream: Server;
let url: string;
const received: number[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      received.push(bytes);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((done) => upstream.close(done)));

it('sends a megabyte of large forwarded bodies in one turn and the rest in later turns, each whole', async () => {
  const mock = plainMock();
  const body = Buffer.alloc(400 * 1024, 'a');
  const sent = vi.spyOn(globalThis, 'fetch');
  try {
    // Another test's large bodies counted in this turn would leave less of it.
    await afterPoll();
    const relays = Array.from({ length: 6 }, () =>
      relay(mock, plainExchange(mock, { method: 'POST', path: '/v1/chat/completions', body: null, rawBody: body, upstream: { url, origins: [], timeoutMs: 10_000 } })),
    );
    expect(sent).toHaveBeenCalledTimes(2);
    for (const relayed of await Promise.all(relays)) for await (const _ of relayed.plan.body);
    expect(sent).toHaveBeenCalledTimes(6);
  } finally {
    sent.mockRestore();
  }
  expect(received).toEqual(Array(6).fill(body.length));
});
