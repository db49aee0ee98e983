// A paced stream's first pause runs from when its request was read, as a model's time to first
// token does: under a burst, the mock's own work on a request (its wait for a turn of the loop, its
// reply) is part of the pause a load test configured, not added to it; the chunks after the first
// keep their gaps. A scenario's delay is not the mock's own work: the pause still follows it whole.
import { describe, expect, it } from 'vitest';
import type { Fault, Plan, StreamEvent } from '../../src/conversation/plan.js';
import type { MockState } from '../../src/server/state.js';
import { write } from '../../src/server/writer.js';
import { contextFor, FakeResponse } from '../helpers/fake-response.js';

const EVENTS: StreamEvent[] = [{ data: { role: 'assistant' } }, ...['Hel', 'lo', '!'].map((text) => ({ data: { content: text }, paced: true }))];

/** A minute to the first chunk, then `chunkMs` between chunks. */
function slowPlan(chunkMs: number): Extract<Plan, { kind: 'stream' }> {
  return { kind: 'stream', status: 200, headers: {}, events: EVENTS, pacing: { firstChunkMs: 60_000, chunkMs }, streamError: () => [] };
}

/** A context whose request was read `agoMs` ago. */
function readAgo(res: FakeResponse, agoMs: number) {
  const ctx = contextFor(res);
  (ctx.state as MockState).readMs = performance.now() - agoMs;
  return ctx;
}

describe('the clock of a paced stream', () => {
  it('starts when the request was read: a request held past its first pause gets its first chunk at once', async () => {
    const res = new FakeResponse();
    await write(readAgo(res, 120_000), slowPlan(1));
    expect(res.writableEnded).toBe(true);
    expect(res.written.join('')).toMatch(/"role":"assistant".*"content":"Hel".*"content":"lo".*"content":"!"/s);
  });

  it('keeps the gaps after the first chunk of a request held past its first pause', async () => {
    const res = new FakeResponse();
    const writing = write(readAgo(res, 120_000), slowPlan(60_000));
    await expect.poll(() => res.written.join('')).toContain('"content":"Hel"');
    expect(res.written.join('')).not.toContain('"content":"lo"');
    res.destroy();
    await writing;
  });

  it('keeps the whole pause after a scenario delay', async () => {
    const res = new FakeResponse();
    const fault: Fault = { kind: 'delay', ms: 1 };
    const writing = write(readAgo(res, 120_000), slowPlan(1), fault);
    await expect.poll(() => res.written.length).toBeGreaterThan(0);
    expect(res.written.join('')).toContain('"role":"assistant"');
    expect(res.written.join('')).not.toContain('"content"');
    res.destroy();
    await writing;
  });
});
