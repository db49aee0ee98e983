// Whether work gives the event loop back, read from the order of events, never from a clock.
import { nextTurn } from '../../src/state/event-loop.js';

/** Settles with how many turns of the loop other work had before `work` was done. */
export async function turnsWhile(work: unknown): Promise<number> {
  let done = false;
  void Promise.resolve(work).then(() => (done = true));
  let turns = 0;
  for (;;) {
    await nextTurn();
    if (done) return turns;
    turns += 1;
  }
}
