// One clock for every paced stream: a thousand streams pacing a token every 30 ms would otherwise
// arm, fire and collect a timer each per event. A tick wakes the sleepers due for a slice of the
// loop at most (state/event-loop.ts), and those left wake at the clock's next timer, once the loop
// has polled and run its immediates: under a thousand streams one tick woke 600-950 of them and
// held the loop for 25-120 ms, every other client's bytes waiting behind it. (Going on in an
// immediate instead held the loop longer in every pair: docs/performance.md, round sixteen.)
import { Slice } from '../state/event-loop.js';

/** What waits on the clock: woken once its deadline has passed. */
export interface Sleeper {
  due(): void;
}

/** Sleepers by the millisecond their deadline falls in (rounded up, so none wakes early). */
const buckets = new Map<number, Sleeper[]>();
/** The buckets' milliseconds, earliest first. */
const order: number[] = [];
let timer: NodeJS.Timeout | undefined;
let armedFor = Infinity;

function arm(ms: number): void {
  clearTimeout(timer);
  armedFor = ms;
  // Node counts a timer's delay in whole milliseconds, cut down: rounding up keeps a wake from coming early.
  timer = setTimeout(tick, Math.max(1, Math.ceil(ms - performance.now())));
}

/**
 * Wakes the sleepers whose millisecond has come, in the order of their deadlines, until the slice
 * is over, then re-arms for the earliest left: those still due wake in a later turn of the loop.
 */
function tick(): void {
  timer = undefined;
  armedFor = Infinity;
  const slice = new Slice();
  const now = performance.now();
  while (order.length > 0 && order[0]! <= now) {
    const ms = order.shift()!;
    const sleepers = buckets.get(ms)!;
    buckets.delete(ms);
    for (let at = 0; at < sleepers.length; at++) {
      sleepers[at]!.due();
      if (slice.over && at + 1 < sleepers.length) {
        // No sleeper is added to a millisecond already passed (Pacer.after wakes at once), so the rest go back whole.
        buckets.set(ms, sleepers.slice(at + 1));
        order.unshift(ms);
        break;
      }
    }
    if (slice.over) break;
  }
  if (order.length > 0) arm(order[0]!);
}

/** Where `ms` goes in `order`: deadlines mostly come in rising, so the search starts from the end. */
function place(ms: number): number {
  let at = order.length;
  while (at > 0 && order[at - 1]! > ms) at--;
  return at;
}

/** Calls `sleeper.due()` once `performance.now()` has passed `atMs`. */
export function wakeAt(atMs: number, sleeper: Sleeper): void {
  const ms = Math.ceil(atMs);
  const bucket = buckets.get(ms);
  if (bucket) {
    bucket.push(sleeper);
    return;
  }
  buckets.set(ms, [sleeper]);
  order.splice(place(ms), 0, ms);
  if (ms < armedFor) arm(ms);
}

/** Takes back a `wakeAt` whose stream ended first, so no timer outlives the last stream waiting. */
export function forget(atMs: number, sleeper: Sleeper): void {
  const ms = Math.ceil(atMs);
  const bucket = buckets.get(ms);
  const at = bucket?.indexOf(sleeper) ?? -1;
  if (at < 0) return;
  bucket!.splice(at, 1);
  if (bucket!.length > 0) return;
  buckets.delete(ms);
  order.splice(order.indexOf(ms), 1);
  if (order.length === 0) {
    clearTimeout(timer);
    timer = undefined;
    armedFor = Infinity;
  }
}
