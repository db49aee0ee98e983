// What the upstream receives is what the client sent: a JSON body and a multipart upload arrive
// byte for byte (the upstream here is a bare node:http server that keeps what it is sent).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { renderPng } from '../../src/media/png.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let upstream: Server;
let upstreamUrl: string;
const received: Array<{ path: string; headers: Record<string, unknown>; body: Buffer }> = [];
let mock: TestServer;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"created":1,"data":[]}');
    });
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  mock = await startTestServer({ upstream: upstreamUrl });
});
afterAll(async () => {
  await mock.close();
  await new Promise((done) => upstream.close(done));
});

it('forwards a multipart image edit byte for byte, boundary and all', async () => {
  const boundary = '----mgm-boundary-42';
  const picture = renderPng(16, 16, 'seed');
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nadd a hat\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="in.png"\r\nContent-Type: image/png\r\n\r\n`),
    picture,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await fetch(`${mock.url}/v1/images/edits?x=1`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-client', 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('x-mock-source')).toBe('upstream');
  const last = received.at(-1)!;
  expect(last.path).toBe('/v1/images/edits?x=1');
  expect(last.headers['content-type']).toBe(`multipart/form-data; boundary=${boundary}`);
  expect(last.body.equals(body)).toBe(true);
});

it('forwards a JSON body byte for byte, spacing and key order kept', async () => {
  const text = '{ "prompt" : "a boat",\n  "model": "gpt-image-1" }';
  await fetch(`${mock.url}/v1/images/generations`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: text });
  expect(received.at(-1)!.body.toString('utf8')).toBe(text);
});
