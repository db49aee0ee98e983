// The ndjson framer through the one writer, on a real socket: a door that frames its streams as
// NDJSON (as Ollama's do) gets one JSON value a line under `application/x-ndjson`, event names
// dropped, a fault's error events as lines of their own, and nothing after the last line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockError } from '../../src/conversation/errors.js';
import type { Fault, Plan, StreamEvent } from '../../src/conversation/plan.js';
import { write } from '../../src/server/writer.js';
import { writerStand, type WriterStand } from '../helpers/writer-stand.js';

const events: StreamEvent[] = [
  { event: 'start', data: { model: 'llama3.2', done: false } },
  ...['one', 'two\nlines', 'three'].map((content) => ({ data: { message: { content }, done: false }, paced: true })),
  { data: { done: true, done_reason: 'stop' } },
];
const plan: Plan = { kind: 'stream', status: 200, headers: {}, events, pacing: { firstChunkMs: 1, chunkMs: 1 }, streamError: (error) => [{ event: 'error', data: { error: error.message } }] };

let stand: WriterStand;
let url: string;
beforeAll(async () => {
  stand = await writerStand((ctx) => {
    const fault: Fault | undefined = ctx.query.fault ? { kind: 'stream_error', afterChunks: 1, error: new MockError('server_error', 'boom') } : undefined;
    return write(ctx, plan, fault, 'ndjson');
  });
  url = stand.url;
});
afterAll(() => stand.close());

describe('a stream framed as NDJSON', () => {
  it('is one JSON value a line, each event whole, under application/x-ndjson', async () => {
    const answer = await fetch(url);
    expect(answer.headers.get('content-type')).toBe('application/x-ndjson');
    const text = await answer.text();
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as unknown)).toEqual(events.map((event) => event.data));
  });

  it("ends with the fault's error events, each a line, where the fault struck", async () => {
    const lines = (await (await fetch(`${url}/?fault=1`)).text()).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([events[0]!.data, events[1]!.data, { error: 'boom' }]);
  });
});
