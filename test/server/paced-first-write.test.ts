// A paced stream's headers go in the same write as its events before the first pause: under a
// burst, the other requests of the turn do not come between a client's headers and its first
// event, and the headers cost no send of their own. A stream whose first event is paced still
// shows its headers before that pause. The client reads from a worker thread, so what it reads
// first is what the server sent before the busy turn that follows.
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan, StreamEvent } from '../../src/conversation/plan.js';
import { write } from '../../src/server/writer.js';
import { writerStand, type WriterStand } from '../helpers/writer-stand.js';

const ROLE: StreamEvent = { data: { delta: { role: 'assistant' } } };
const pieces = ['one', 'two', 'three'].map((content): StreamEvent => ({ data: { delta: { content } }, paced: true }));
const streamError = () => [];
const PLANS: Record<string, Plan> = {
  '/role-first': { kind: 'stream', status: 200, headers: {}, events: [ROLE, ...pieces], pacing: { firstChunkMs: 300, chunkMs: 1 }, streamError },
  '/paced-first': { kind: 'stream', status: 200, headers: {}, events: pieces, pacing: { firstChunkMs: 800, chunkMs: 1 }, streamError },
};
/** How long the turn after a stream's handing over is held, as a burst's other requests hold it. */
const BUSY_MS = 150;

let stand: WriterStand;
beforeAll(async () => {
  stand = await writerStand((ctx) => {
    void write(ctx, PLANS[ctx.path]!);
    const until = performance.now() + BUSY_MS;
    while (performance.now() < until);
  });
});
afterAll(() => stand.close());

const CLIENT = `
const { connect } = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const socket = connect(workerData.port, '127.0.0.1');
socket.once('data', (bytes) => {
  parentPort.postMessage(bytes.toString('latin1'));
  socket.destroy();
});
socket.write('GET ' + workerData.path + ' HTTP/1.1\\r\\nhost: x\\r\\n\\r\\n');
`;

/** The bytes of the client's first read. */
function firstRead(path: string): Promise<string> {
  const worker = new Worker(CLIENT, { eval: true, workerData: { port: stand.port, path } });
  return new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  }).finally(() => worker.terminate());
}

describe("a paced stream's first write", () => {
  it('carries its headers and the events before its first pause', async () => {
    const read = await firstRead('/role-first');
    const [head, body] = read.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/content-type: text\/event-stream/i);
    expect(body).toContain(`data: ${JSON.stringify(ROLE.data)}\n\n`);
    expect(body).not.toContain('"content"');
  });

  it('is its headers alone when its first event waits for the pause', async () => {
    const read = await firstRead('/paced-first');
    const [head, body] = read.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(body).toBe('');
  });
});
