// Large request bodies wait for the mock (at most 16 MB of them at work at once) and for their
// turn of the event loop (at most 1 MB started per turn), in the order they came; small ones and
// a large one alone never wait.
import { describe, expect, it } from 'vitest';
import { turnForBytes } from '../../src/state/event-loop.js';
import { BodiesInFlight, IN_FLIGHT_BYTES, LARGE_BODY } from '../../src/state/large-bodies.js';

const KB = 1024;
const MB = 1024 * KB;

/** Which of `waits` have settled, after every microtask now queued has run. */
async function settled(waits: ReadonlyArray<Promise<void> | undefined>): Promise<boolean[]> {
  const done = waits.map(() => false);
  waits.forEach((wait, i) => void wait?.then(() => (done[i] = true)));
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  return waits.map((wait, i) => wait === undefined || done[i]!);
}

describe('bodies in flight', () => {
  it('never holds a small body and admits large ones up to the bound, then in order as others end', async () => {
    const inFlight = new BodiesInFlight();
    expect(inFlight.admit(LARGE_BODY - 1)).toBeUndefined();
    const first = [inFlight.admit(6 * MB), inFlight.admit(6 * MB)];
    expect(first).toEqual([undefined, undefined]);
    const later = [inFlight.admit(6 * MB), inFlight.admit(300 * KB), inFlight.admit(NaN)];
    expect(later[2]).toBeUndefined();
    // The 300 KB one fits, but waits behind the one that came before it.
    expect(await settled(later)).toEqual([false, false, true]);
    inFlight.release(LARGE_BODY - 1);
    expect(await settled(later)).toEqual([false, false, true]);
    inFlight.release(6 * MB);
    expect(await settled(later)).toEqual([true, true, true]);
  });

  it('admits a body over the bound alone, and nothing beside it until it ends', async () => {
    const inFlight = new BodiesInFlight();
    expect(inFlight.admit(IN_FLIGHT_BYTES * 2)).toBeUndefined();
    const next = inFlight.admit(100 * KB);
    expect(await settled([next])).toEqual([false]);
    inFlight.release(IN_FLIGHT_BYTES * 2);
    expect(await settled([next])).toEqual([true]);
    inFlight.release(100 * KB);
    expect(inFlight.admit(IN_FLIGHT_BYTES)).toBeUndefined();
  });
});

/** A turn left over from another test in this process ends first (its timer was armed before this one). */
async function nextTurn(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setImmediate(resolve));
}

describe('turns of the event loop', () => {
  it('starts at most a megabyte of large bodies in one turn, the rest in later turns in order', async () => {
    await nextTurn();
    const starts = Array.from({ length: 7 }, () => turnForBytes(300 * KB));
    // Three fit in this turn (900 KB); the others wait for the next turns, three a turn.
    expect(await settled(starts)).toEqual([true, true, true, false, false, false, false]);
    expect(turnForBytes(LARGE_BODY - 1)).toBeUndefined();
    const order: number[] = [];
    await Promise.all(starts.map((start, i) => start?.then(() => order.push(i))));
    expect(order).toEqual([3, 4, 5, 6]);
  });

  it('starts a body larger than a turn alone, in a turn of its own', async () => {
    await nextTurn();
    expect(turnForBytes(5 * MB)).toBeUndefined();
    const next = turnForBytes(LARGE_BODY);
    expect(await settled([next])).toEqual([false]);
    await next;
  });
});
