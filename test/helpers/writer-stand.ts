// A bare Koa app around the one writer on a real socket, for the writer's tests that need no mock:
// each request gets the open-stream registry a stream is handed to, then `answer`.
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { OpenStreams } from '../../src/server/open-streams.js';

export interface WriterStand {
  port: number;
  url: string;
  close(): Promise<void>;
}

export async function writerStand(answer: (ctx: Koa.ParameterizedContext) => unknown): Promise<WriterStand> {
  const app = new Koa();
  app.use((ctx) => {
    ctx.state.streams = new OpenStreams();
    return answer(ctx);
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
