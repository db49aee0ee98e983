// libuv accepts one connection a turn of the loop: while a burst's connections come in, requests
// wait, so that each turn stays short and the rest are taken in from the kernel's queue rather
// than left there, unseen by a stream's clock. A lone connection's request is not held past its
// own turn, and a flood that never pauses is served one request a turn after a second (ACCEPTING_MS).
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectionAccepted } from '../../src/state/accepting.js';
import { turnForRequest } from '../../src/state/event-loop.js';

let clock = 1000;
const now = vi.spyOn(performance, 'now').mockImplementation(() => clock);
afterAll(() => now.mockRestore());

/** Past the check phase of this turn of the loop (the immediates queued before this one). */
const checkPhase = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Whether the wait has settled, as it settles. */
function track(wait: Promise<void> | undefined): { done: boolean } {
  const state = { done: wait === undefined };
  void wait?.then(() => (state.done = true));
  return state;
}

/** Turns of the loop with no connection accepted, and the turn scheduler's own timer past. */
async function quiet(): Promise<void> {
  for (let i = 0; i < 3; i++) await checkPhase();
  await new Promise((resolve) => setTimeout(resolve, 0));
  await checkPhase();
}

beforeEach(quiet);

describe('requests while connections come in', () => {
  it('wait while each turn of the loop accepts a connection, and go in the first turn that accepts none', async () => {
    connectionAccepted();
    const request = track(turnForRequest());
    expect(request.done).toBe(false);
    for (let turn = 0; turn < 5; turn++) {
      await checkPhase();
      expect(request.done).toBe(false);
      connectionAccepted();
    }
    await checkPhase();
    expect(request.done).toBe(false);
    await checkPhase();
    expect(request.done).toBe(true);
  });

  it('hold a lone connection’s request only until the check phase of the turn that read it', async () => {
    connectionAccepted();
    await checkPhase();
    // Its request is read in the next turn: no connection came after it.
    const request = track(turnForRequest());
    await checkPhase();
    expect(request.done).toBe(true);
  });

  it('go one a turn, as a turn accepts, after a second of connections that never pause', async () => {
    connectionAccepted();
    const first = track(turnForRequest());
    const second = track(turnForRequest());
    for (let turn = 0; turn < 3; turn++) {
      connectionAccepted();
      await checkPhase();
    }
    expect([first.done, second.done]).toEqual([false, false]);
    // Half a second in, a burst's connections are still being taken in: its requests still wait.
    clock += 500;
    connectionAccepted();
    await checkPhase();
    expect([first.done, second.done]).toEqual([false, false]);
    clock += 500;
    connectionAccepted();
    await checkPhase();
    expect([first.done, second.done]).toEqual([true, false]);
    connectionAccepted();
    await checkPhase();
    expect([first.done, second.done]).toEqual([true, true]);
  });

  it('go at once when no connection was accepted in this turn or the one before', async () => {
    expect(turnForRequest()).toBeUndefined();
  });
});
