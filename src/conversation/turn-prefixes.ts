// Work done over a conversation, remembered by the turn it ended with. The turns a
// `previous_response_id` chain carries are the same objects request after request, so a request
// that continues one goes on from where the request before it stopped (its counter, its digest)
// instead of going over the whole conversation again: a late turn of a long chain costs about
// what the first did.
import type { Turn } from './types.js';

/**
 * Work is remembered once every this many turns of a conversation, not after every request: a
 * SHA-1 state and a token counter for every stored response would be a fifth of what a short one
 * holds. A request goes over at most this many turns again.
 */
const EVERY_TURNS = 8;
/** How far back past its carried turns a request looks besides: the previous request ended just before its reply's turn. */
const LOOK_BACK = 4;

interface Remembered<S> {
  /** What else the work depended on (the system text, the model), compared whole. */
  context: string;
  /** The conversation the work covered: from `first`, `length` turns long. */
  first: Turn;
  length: number;
  state: S;
}

export class TurnPrefixes<S> {
  private readonly known = new WeakMap<Turn, Remembered<S>>();

  /**
   * The work remembered for the longest head of `turns` under `context`, and how many turns it
   * covers. A head is the same conversation when it starts with the same turn and is as long:
   * chains only grow at their end, and one whose oldest responses were evicted starts elsewhere.
   */
  resume(turns: readonly Turn[], carried: number, context: string): { covered: number; state: S } | undefined {
    const lowest = Math.max(1, carried - LOOK_BACK - EVERY_TURNS);
    for (let end = turns.length; end >= lowest; end -= 1) {
      const known = this.known.get(turns[end - 1]!);
      if (known && known.length === end && known.first === turns[0] && known.context === context) return { covered: end, state: known.state };
    }
    return undefined;
  }

  /**
   * Remembers the work that covered all of `turns` (kept as long as their last turn is), unless
   * it went on from work remembered fewer than EVERY_TURNS turns before (`covered`).
   */
  remember(turns: readonly Turn[], context: string, covered: number | undefined, state: () => S): void {
    const last = turns.at(-1);
    if (!last || (covered !== undefined && turns.length - covered < EVERY_TURNS)) return;
    this.known.set(last, { context, first: turns[0]!, length: turns.length, state: state() });
  }
}
