// Requests started in one turn of the event loop take at most about TURN_MS together; the next
// ones start in later turns, one at a time while a turn has time left, in the order they came.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TURN_MS, turnForRequest } from '../../src/state/event-loop.js';

let clock = 1000;
const now = vi.spyOn(performance, 'now').mockImplementation(() => clock);
afterAll(() => now.mockRestore());

/** Past the turn's timer (armed before this one, so it fires first) and the immediates it queued. */
async function nextTurn(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setImmediate(resolve));
}

/** Which waits have settled; each one that goes works `workMs` on the clock as it starts. */
function track(waits: ReadonlyArray<Promise<void> | undefined>, workMs: number): boolean[] {
  const done = waits.map((wait) => wait === undefined);
  waits.forEach((wait, i) =>
    wait?.then(() => {
      done[i] = true;
      clock += workMs;
    }),
  );
  return done;
}

beforeEach(nextTurn);

describe('work turns', () => {
  it('lets requests start while their turn has time left, then holds the next ones for later turns', async () => {
    expect(turnForRequest()).toBeUndefined();
    clock += TURN_MS - 1;
    expect(turnForRequest()).toBeUndefined();
    clock += 30;
    const waits = [turnForRequest(), turnForRequest(), turnForRequest()];
    expect(waits.every((wait) => wait instanceof Promise)).toBe(true);
    // Each works 30 ms, more than a turn: one goes a turn.
    const done = track(waits, 30);
    await nextTurn();
    expect(done).toEqual([true, false, false]);
    await nextTurn();
    expect(done).toEqual([true, true, false]);
    await nextTurn();
    expect(done).toEqual([true, true, true]);
  });

  it('lets waiting requests go one after another while their turn has time, in the order they came', async () => {
    expect(turnForRequest()).toBeUndefined();
    clock += TURN_MS;
    const order: number[] = [];
    const waits = [turnForRequest(), turnForRequest(), turnForRequest()];
    // Each works 5 ms: the three fit in the next turn.
    const done = track(waits, 5);
    waits.forEach((wait, i) => wait?.then(() => order.push(i)));
    // One that comes as the first goes, with time left in the turn, still goes after the others.
    const late = waits[0]!.then(() => {
      const turn = turnForRequest();
      expect(turn).toBeInstanceOf(Promise);
      return turn?.then(() => order.push(3));
    });
    await Promise.all([...waits, late]);
    expect(done).toEqual([true, true, true]);
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it('gives a waiting request its turn in a process with nothing else alive (the drift command asks its mock in process)', async () => {
    const module = join(import.meta.dirname, '..', '..', 'src', 'state', 'event-loop.ts');
    const script = `const { turnForRequest } = await import(${JSON.stringify(module)}); let clock = 0; performance.now = () => clock; turnForRequest(); clock += 100; await turnForRequest(); console.log('went');`;
    const run = await new Promise<{ code: number | null; stdout: string }>((done) =>
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }, (error, stdout) => done({ code: error ? (error.code as number) : 0, stdout })),
    );
    expect(run).toEqual({ code: 0, stdout: 'went\n' });
  });

  it('never holds the first request of a turn, however long the one before took', async () => {
    expect(turnForRequest()).toBeUndefined();
    clock += 10 * TURN_MS;
    await nextTurn();
    expect(turnForRequest()).toBeUndefined();
  });

  it('lets the waiting requests that fit in a turn go in that one turn of the loop, not one a turn', async () => {
    expect(turnForRequest()).toBeUndefined();
    clock += TURN_MS;
    const waits = [turnForRequest(), turnForRequest(), turnForRequest()];
    // Each works 5 ms: the three fit in the next turn, and a burst's headers need not wait for three.
    const done = track(waits, 5);
    await nextTurn();
    expect(done).toEqual([true, true, true]);
  });
});
