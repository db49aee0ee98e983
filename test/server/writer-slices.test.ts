// A long unpaced stream (a long speech as SSE is 21 MB of events) is written a few milliseconds of
// work at a time: other work waiting on the event loop runs between its slices, not after it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamEvent } from '../../src/conversation/plan.js';
import { bytePieces, setTextBody } from '../../src/server/text-body.js';
import { write } from '../../src/server/writer.js';
import { contextFor, FakeResponse } from '../helpers/fake-response.js';

describe('an unpaced stream of many megabytes', () => {
  it('gives the event loop back between slices and still writes every event in order', async () => {
    // 20 MB of JSON to serialise: well over one 5 ms slice of work on any machine.
    const events: StreamEvent[] = Array.from({ length: 2_000 }, (_, index) => ({ data: { index, text: 'x'.repeat(10_000) }, paced: true }));
    const res = new FakeResponse();
    let writesWhenOtherWorkRan: number | undefined;
    setImmediate(() => (writesWhenOtherWorkRan = res.written.length));
    await write(contextFor(res), { kind: 'stream', status: 200, headers: {}, events, pacing: { firstChunkMs: 0, chunkMs: 0 }, streamError: () => [] });
    expect(writesWhenOtherWorkRan).toBeDefined();
    expect(res.written.length).toBeGreaterThan(writesWhenOtherWorkRan!);
    expect(res.writableEnded).toBe(true);
    const indexes = [...res.written.join('').matchAll(/"index":(\d+)/g)].map((match) => Number(match[1]));
    expect(indexes).toEqual(events.map((_, index) => index));
  });
});

describe('a stream of a few events held past a slice by something else', () => {
  afterEach(() => vi.restoreAllMocks());

  it('still goes out in one write, with its end', async () => {
    // Every reading of the clock 10 ms on, as when a collection or another process holds the core
    // between two of the stream's events: a slice's time is over at each, its work is not.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (now += 10));
    const events: StreamEvent[] = Array.from({ length: 5 }, (_, index) => ({ data: { index }, paced: true }));
    const res = new FakeResponse();
    await write(contextFor(res), { kind: 'stream', status: 200, headers: {}, events, pacing: { firstChunkMs: 0, chunkMs: 0 }, streamError: () => [] });
    expect(res.writableEnded).toBe(true);
    expect(res.written).toHaveLength(1);
    expect([...res.written[0]!.matchAll(/"index":(\d+)/g)].map((match) => Number(match[1]))).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('a whole JSON answer of many megabytes', () => {
  it('is written a piece at a time, byte for byte, never splitting a character', async () => {
    // Four-byte characters at every piece edge: a piece ending between the halves of one would
    // turn both into replacement characters.
    const text = JSON.stringify({ data: Array.from({ length: 400 }, (_, i) => `${'é'.repeat(i)}${'\u{1F4E6}'.repeat(4000)}`) });
    const pieces: Buffer[] = [];
    for await (const piece of bytePieces([text])) pieces.push(piece);
    expect(Buffer.concat(pieces).equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(pieces.length).toBeGreaterThan(1);
  });

  it('answers a JSON text of many megabytes with its length in bytes', async () => {
    const text = JSON.stringify({ note: '\u{1F4E6}'.repeat(600_000) });
    const ctx = contextFor(new FakeResponse());
    setTextBody(ctx, text);
    expect(ctx.length).toBe(Buffer.byteLength(text));
  });

  it('answers a text made in pieces with the bytes and length of the pieces joined, a character never split', async () => {
    // Thousands of pieces, as embeddings' vectors are, with four-byte characters across the edges of the buffers written.
    const pieces = Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? `"${'\u{1F4E6}'.repeat(200)}é` : `${i},${'v'.repeat(300 + i)}`));
    const ctx = contextFor(new FakeResponse());
    setTextBody(ctx, pieces);
    const whole = pieces.join('');
    expect(ctx.length).toBe(Buffer.byteLength(whole));
    const written: Buffer[] = [];
    for await (const piece of ctx.body as AsyncIterable<Buffer>) written.push(piece);
    expect(Buffer.concat(written).equals(Buffer.from(whole, 'utf8'))).toBe(true);
    expect(written.length).toBeGreaterThan(1);
  });
});
