// One clock for every paced stream: a thousand streams pacing a token every 30 ms would otherwise
// arm, fire and collect a timer each per event.

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

/** Wakes every sleeper whose millisecond has come, in the order of their deadlines, then re-arms for the next. */
function tick(): void {
  timer = undefined;
  armedFor = Infinity;
  const now = performance.now();
  while (order.length > 0 && order[0]! <= now) {
    const ms = order.shift()!;
    const sleepers = buckets.get(ms)!;
    buckets.delete(ms);
    for (const sleeper of sleepers) sleeper.due();
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
