// One clock for every paced stream: a thousand streams pacing a token every 30 ms would otherwise
// arm, fire and collect a timer each per event.

/** What waits on the clock: woken once its deadline has passed. */
export interface Sleeper {
  due(): void;
}

/** Sleepers by the millisecond their deadline falls in (rounded up, so none wakes early), earliest first. */
class Deadlines {
  private readonly buckets = new Map<number, Sleeper[]>();
  /** The buckets' milliseconds, earliest first. */
  private readonly order: number[] = [];

  get earliest(): number {
    return this.order[0] ?? Infinity;
  }

  /** Adds `sleeper` at `ms`: whether it is the earliest now. */
  add(ms: number, sleeper: Sleeper): boolean {
    const bucket = this.buckets.get(ms);
    if (bucket) {
      bucket.push(sleeper);
      return false;
    }
    this.buckets.set(ms, [sleeper]);
    // Deadlines mostly come in rising, so the search starts from the end.
    let at = this.order.length;
    while (at > 0 && this.order[at - 1]! > ms) at--;
    this.order.splice(at, 0, ms);
    return at === 0;
  }

  /** Takes `sleeper` back from `ms`: whether it was there. */
  remove(ms: number, sleeper: Sleeper): boolean {
    const bucket = this.buckets.get(ms);
    const at = bucket?.indexOf(sleeper) ?? -1;
    if (at < 0) return false;
    bucket!.splice(at, 1);
    if (bucket!.length === 0) {
      this.buckets.delete(ms);
      this.order.splice(this.order.indexOf(ms), 1);
    }
    return true;
  }

  /** Wakes the sleepers due by `now` in deadline order until `over()`: whether none due is left. */
  wake(now: number, over: () => boolean): boolean {
    while (this.order.length > 0 && this.order[0]! <= now) {
      const ms = this.order[0]!;
      const sleepers = this.buckets.get(ms)!;
      while (sleepers.length > 0) {
        if (over()) return false;
        sleepers.shift()!.due();
      }
      this.order.shift();
      this.buckets.delete(ms);
    }
    return true;
  }
}

/**
 * Streams' first events, woken before the others due: a stream's time to first token is what a
 * load test measures, and one event more late for each other stream costs them little.
 */
const firsts = new Deadlines();
const later = new Deadlines();
let timer: NodeJS.Timeout | undefined;
let armedFor = Infinity;
/** Set while the rest of a tick cut short waits for its immediate: no timer is armed meanwhile. */
let resuming: NodeJS.Immediate | undefined;

/**
 * How long one tick may wake sleepers before the loop polls for I/O. Unbounded, a saturated
 * thread ran a tick for hundreds of ms while the requests of the streams' later waves waited.
 */
const TICK_MS = 5;

function arm(ms: number): void {
  if (resuming) return;
  clearTimeout(timer);
  armedFor = ms;
  // Node counts a timer's delay in whole milliseconds, cut down: rounding up keeps a wake from coming early.
  timer = setTimeout(tick, Math.max(1, Math.ceil(ms - performance.now())));
}

/**
 * Wakes the sleepers whose millisecond has come, streams' first events first, for at most
 * TICK_MS; the rest, still first, go on in an immediate, after the loop has polled (an immediate
 * armed from a timer runs after the poll). Then re-arms for the next.
 */
function tick(): void {
  timer = undefined;
  resuming = undefined;
  armedFor = Infinity;
  const now = performance.now();
  const over = (): boolean => performance.now() - now >= TICK_MS;
  if (!firsts.wake(now, over) || !later.wake(now, over)) {
    resuming = setImmediate(tick);
    return;
  }
  const next = Math.min(firsts.earliest, later.earliest);
  if (next < Infinity) arm(next);
}

/** Calls `sleeper.due()` once `performance.now()` has passed `atMs`; `first`: a stream's first event. */
export function wakeAt(atMs: number, sleeper: Sleeper, first = false): void {
  const ms = Math.ceil(atMs);
  (first ? firsts : later).add(ms, sleeper);
  if (ms < armedFor) arm(ms);
}

/** Takes back a `wakeAt` whose stream ended first, so no timer outlives the last stream waiting. */
export function forget(atMs: number, sleeper: Sleeper): void {
  const ms = Math.ceil(atMs);
  if (!later.remove(ms, sleeper)) firsts.remove(ms, sleeper);
  if (firsts.earliest === Infinity && later.earliest === Infinity) {
    clearTimeout(timer);
    clearImmediate(resuming);
    timer = undefined;
    resuming = undefined;
    armedFor = Infinity;
  }
}
