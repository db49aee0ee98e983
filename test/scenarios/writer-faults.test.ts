// The writer performing faults on a stand-in response, with fake timers: what it writes, and that
// a client leaving or a cut leaves no timer and no listener behind.
import type { Context } from 'koa';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MockError } from '../../src/conversation/errors.js';
import type { Fault, Plan, StreamEvent } from '../../src/conversation/plan.js';
import type { OpenStreams } from '../../src/server/open-streams.js';
import { faultIndex } from '../../src/server/fault-strike.js';
import { write } from '../../src/server/writer.js';
import { contextFor, FakeResponse } from '../helpers/fake-response.js';

const events: StreamEvent[] = [
  { data: { role: 'assistant' } },
  ...['one', 'two', 'three', 'four', 'five'].map((text) => ({ data: { text }, paced: true })),
  { data: { finish: 'stop' } },
  { data: '[DONE]' },
];

/** Where each in-stream error was asked for (how many events went before it). */
let cuts: number[] = [];
const streamError = (error: MockError, cutAt: number): StreamEvent[] => {
  cuts.push(cutAt);
  return [{ event: 'error', data: { error: { message: error.message } } }];
};

function stream(chunkMs: number): Plan {
  return { kind: 'stream', status: 200, headers: {}, events, pacing: { firstChunkMs: chunkMs, chunkMs }, streamError };
}

const boom = (afterChunks: number): Fault => ({ kind: 'stream_error', afterChunks, error: new MockError('server_error', 'boom') });

let res: FakeResponse;
beforeEach(() => {
  // Only what the writer uses: the test runner's own setImmediate and setInterval stay real.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
  res = new FakeResponse();
  cuts = [];
});
afterEach(() => {
  vi.useRealTimers();
});

const text = () => res.written.join('');

describe('faults in the writer', () => {
  it('cuts after N content chunks and drops the connection, leaving nothing behind', async () => {
    const done = write(contextFor(res), stream(100), { kind: 'cut_stream', afterChunks: 2 });
    await vi.advanceTimersByTimeAsync(1_000);
    await done;
    expect(res.destroyed).toBe(true);
    expect(res.writableEnded).toBe(false);
    expect(text()).toContain('"two"');
    expect(text()).not.toContain('"three"');
    expect(vi.getTimerCount()).toBe(0);
    expect(res.listeners_()).toBe(0);
  });

  it('sends the plan\'s in-stream error after N chunks and ends the stream without its closing events', async () => {
    await write(contextFor(res), stream(0), boom(1));
    // The role chunk and the first content chunk went before the error.
    expect(cuts).toEqual([2]);
    expect(text()).toContain('"one"');
    expect(text()).not.toContain('"two"');
    expect(text()).toMatch(/event: error\ndata: \{"error":\{"message":"boom"\}\}\n\n$/);
    expect(text()).not.toContain('[DONE]');
    expect(res.writableEnded).toBe(true);
  });

  it('ends a stream interrupted by a shutdown in the same in-stream error, as overloaded', async () => {
    const ctx = contextFor(res);
    const done = write(ctx, stream(100));
    await vi.advanceTimersByTimeAsync(250);
    (ctx.state as { streams: OpenStreams }).streams.interruptAll();
    await vi.advanceTimersByTimeAsync(100);
    await done;
    expect(text()).toContain('"two"');
    expect(text()).not.toContain('"four"');
    expect(text()).toMatch(/event: error\ndata: \{"error":\{"message":"The mock is shutting down[^\n]*\n\n$/);
    expect(text()).not.toContain('[DONE]');
    expect(res.writableEnded).toBe(true);
  });

  it('breaks a malformed stream off mid-content with a frame that is not JSON', async () => {
    await write(contextFor(res), stream(0), { kind: 'malformed' });
    expect(text()).toContain('"two"');
    expect(text()).not.toContain('"three"');
    expect(text()).toMatch(/data: \{"malformed":\n\n$/);
  });

  it('stops at once when the client leaves between paced chunks: no timer, no listener', async () => {
    const done = write(contextFor(res), stream(1_000));
    await vi.advanceTimersByTimeAsync(2_500);
    res.destroy();
    await done;
    expect(text()).toContain('"two"');
    expect(text()).not.toContain('"three"');
    expect(vi.getTimerCount()).toBe(0);
    expect(res.listeners_()).toBe(0);
  });

  it('does not hang when the client leaves while the socket buffer is full', async () => {
    res.full = true;
    const done = write(contextFor(res), stream(10));
    await vi.advanceTimersByTimeAsync(10);
    res.destroy();
    await done;
    expect(vi.getTimerCount()).toBe(0);
    expect(res.listeners_()).toBe(0);
  });

  it('does not hang on a client that left before the stream began', async () => {
    res.destroy();
    await write(contextFor(res), stream(0));
    expect(res.written).toEqual([]);
    expect(res.listeners_()).toBe(0);
  });

  it('a delay whose client leaves writes nothing, marks the request gone and clears its timer', async () => {
    const ctx = contextFor(res);
    const done = write(ctx, { kind: 'json', status: 200, headers: {}, body: { ok: true } }, { kind: 'delay', ms: 60_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    res.destroy();
    await done;
    expect(ctx.respond).toBe(false);
    expect(res.statusCode).toBe(499);
    expect(vi.getTimerCount()).toBe(0);
    expect(res.listeners_()).toBe(0);
  });
});

describe('pacing in the writer', () => {
  const paced = (): Plan => ({ kind: 'stream', status: 200, headers: {}, events, pacing: { firstChunkMs: 300, chunkMs: 20 }, streamError });
  const contentSent = () => ['one', 'two', 'three', 'four', 'five'].filter((word) => text().includes(`"${word}"`)).length;

  it('sends the opening event at once, the first chunk after first_chunk_ms, then one per chunk_ms', async () => {
    const done = write(contextFor(res), paced());
    await vi.advanceTimersByTimeAsync(0);
    expect(text()).toContain('"assistant"');
    expect(contentSent()).toBe(0);
    await vi.advanceTimersByTimeAsync(300);
    expect(contentSent()).toBe(1);
    await vi.advanceTimersByTimeAsync(40);
    expect(contentSent()).toBe(3);
    await vi.advanceTimersByTimeAsync(40);
    await done;
    expect(text()).toContain('[DONE]');
    expect(res.listeners_()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('faultIndex', () => {
  it('strikes before the chunk after N content chunks', () => {
    expect(faultIndex(events, 0)).toBe(1);
    expect(faultIndex(events, 3)).toBe(4);
  });

  it('strikes right after the last chunk when the reply has fewer, so the stream never completes', () => {
    expect(faultIndex(events, 50)).toBe(6);
  });
});

describe('what the writer reports as sent, for the journal', () => {
  type Sent = { status: number; events?: Array<{ event: string | null; data: unknown }>; truncated?: true };
  const sentOf = (ctx: Context) => {
    const sent = (ctx.state as { sent?: string }).sent;
    return sent === undefined ? undefined : (JSON.parse(sent) as Sent);
  };

  it('the events up to a stream fault, the style error events included, each with its event name or null', async () => {
    const ctx = contextFor(res);
    await write(ctx, stream(0), boom(1));
    expect(sentOf(ctx)?.events).toEqual([
      { event: null, data: { role: 'assistant' } },
      { event: null, data: { text: 'one' } },
      { event: 'error', data: { error: { message: 'boom' } } },
    ]);
  });

  it('only the events that reached the socket when the client leaves mid-stream', async () => {
    const ctx = contextFor(res);
    const done = write(ctx, stream(1_000));
    await vi.advanceTimersByTimeAsync(2_500);
    res.destroy();
    await done;
    expect(sentOf(ctx)?.events?.map((e) => e.data)).toEqual([{ role: 'assistant' }, { text: 'one' }, { text: 'two' }]);
  });

  it('the text of a broken frame, and the end of a stream as text', async () => {
    const malformed = contextFor(res);
    await write(malformed, stream(0), { kind: 'malformed' });
    expect(sentOf(malformed)?.events?.at(-1)).toEqual({ event: null, data: '{"malformed":' });
    res = new FakeResponse();
    const whole = contextFor(res);
    await write(whole, stream(0));
    expect(sentOf(whole)?.events?.at(-1)).toEqual({ event: null, data: '[DONE]' });
  });

  it('cuts a stream past 1 MB and says so', async () => {
    const big = 'x'.repeat(300_000);
    const plan: Plan = { kind: 'stream', status: 200, headers: {}, events: Array.from({ length: 5 }, () => ({ data: { big } })), pacing: { firstChunkMs: 0, chunkMs: 0 }, streamError };
    const ctx = contextFor(res);
    await write(ctx, plan);
    expect(text().length).toBeGreaterThan(1_500_000);
    expect(sentOf(ctx)?.events).toHaveLength(3);
    expect(sentOf(ctx)?.truncated).toBe(true);
  });
});
