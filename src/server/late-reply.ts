// A stream whose reply is made after its headers (exchange/late-stream.ts): the writer has the
// reply made shortly before its first event is due, on the pacing clock, so that under a burst
// the requests still coming in get their headers first and the replies follow in the order their
// first events come due.
import { ChunkDeadlines } from '../conversation/latency.js';
import type { Plan } from '../conversation/plan.js';
import type { Pacer } from './pacer.js';
import type { StreamEnd } from './stream-events.js';

type StreamPlan = Extract<Plan, { kind: 'stream' }>;
type LatePlan = StreamPlan & { make(): Promise<void> };

/** Whether the plan makes its reply when asked, after the headers (exchange/late-stream.ts). */
export function isLate(plan: StreamPlan): plan is LatePlan {
  return plan.make !== undefined;
}

/**
 * How long before its first event is due a stream's reply is made: a reply takes well under a
 * millisecond. Its opening events (those before the first pause) go out on a wake of their own,
 * between its making and its first paced event (stream-events.ts `OPENING_AHEAD_MS`).
 */
const LEAD_MS = 50;

/**
 * Calls `then(undefined, deadlines)` once the reply is made, near its first event's deadline and
 * never in the turn that wrote the headers, with the deadlines its events are paced by; or
 * `then(end)` when the stream ended meanwhile: its client left (the reply is made all the same,
 * for the journal's usage, as it was before its headers), or the making failed with an error of
 * the mock's, after the headers (its connection is dropped).
 */
export function whenMade(pacer: Pacer, plan: LatePlan, then: (ended: StreamEnd | undefined, deadlines: ChunkDeadlines) => void): void {
  const deadlines = new ChunkDeadlines(plan.pacing);
  let atOnce = true;
  pacer.after(Math.max(0, deadlines.first - LEAD_MS), (open) => {
    const make = () =>
      plan.make().then(
        () => then(open ? undefined : 'client gone', deadlines),
        () => then('broken', deadlines),
      );
    if (atOnce) setImmediate(make);
    else make();
  });
  atOnce = false;
}
