// The clock every paced stream waits on: one timer however many streams wait, no wake before its
// deadline, none left once the last sleeper is taken back, and other clients' work let in between
// when the sleepers due at once take long to wake.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forget, wakeAt } from '../../src/server/pacing-clock.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A sleeper that notes the time it woke at. */
function sleeper(woke: { name: string; at: number }[], name: string) {
  return { due: () => woke.push({ name, at: performance.now() }) };
}

describe('pacing clock', () => {
  it('wakes a thousand sleepers on one timer, each at or after its deadline, in deadline order', async () => {
    const woke: { name: string; at: number }[] = [];
    const start = performance.now();
    const deadlines = Array.from({ length: 1000 }, (_, i) => start + 350 - ((i * 7) % 300) + (i % 3) / 3);
    deadlines.forEach((at, i) => wakeAt(at, sleeper(woke, String(i))));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(400);
    expect(woke).toHaveLength(1000);
    for (const { name, at } of woke) expect(at).toBeGreaterThanOrEqual(deadlines[Number(name)]!);
    const order = woke.map(({ name }) => Math.ceil(deadlines[Number(name)]!));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves no timer once every sleeper is taken back, and wakes none of them', async () => {
    const woke: { name: string; at: number }[] = [];
    const start = performance.now();
    const sleepers = [10, 20, 20.5].map((ms) => ({ at: start + ms, sleeper: sleeper(woke, String(ms)) }));
    for (const { at, sleeper: s } of sleepers) wakeAt(at, s);
    for (const { at, sleeper: s } of sleepers) forget(at, s);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(50);
    expect(woke).toEqual([]);
  });

  it('lets the loop go round while many sleepers due at once take long to wake, and wakes them all in order', async () => {
    // Real timers: what runs between two slices is the loop's own order of phases.
    vi.useRealTimers();
    const woke: number[] = [];
    let wokenBeforeOthers: number | undefined;
    const at = performance.now() + 5;
    for (let index = 0; index < 400; index++) {
      wakeAt(at, {
        due: () => {
          // Another client's work, queued as the first sleeper wakes: it runs once the loop goes round.
          if (index === 0) setImmediate(() => (wokenBeforeOthers = woke.length));
          woke.push(index);
          // Each wake holds the loop a little, as a stream's write does: 400 of them hold it 20 ms or more.
          const until = performance.now() + 0.05;
          while (performance.now() < until);
        },
      });
    }
    // Polled to a deadline: a loaded machine may take longer to go round.
    await vi.waitUntil(() => woke.length === 400 && wokenBeforeOthers !== undefined, { timeout: 10_000, interval: 5 });
    expect(woke).toEqual(Array.from({ length: 400 }, (_, index) => index));
    expect(wokenBeforeOthers).toBeGreaterThan(0);
    expect(wokenBeforeOthers).toBeLessThan(400);
  });
});
