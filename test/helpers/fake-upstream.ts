// A bare node:http server playing the upstream: it answers with the handler given and keeps what
// it was sent, so a test sees exactly what the mock forwarded.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface FakeUpstream {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export async function startFakeUpstream(answer: (req: Received, res: ServerResponse) => void): Promise<FakeUpstream> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const one = { method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      received.push(one);
      answer(one, res);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
