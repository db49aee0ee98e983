// A long unpaced stream (a long speech as SSE is 21 MB of events) is written a few milliseconds of
// work at a time: other work waiting on the event loop runs between its slices, not after it.
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/conversation/plan.js';
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
