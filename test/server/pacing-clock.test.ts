// The clock every paced stream waits on: one timer however many streams wait, no wake before its
// deadline, and none left once the last sleeper is taken back.
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
});
