// A paced stream whose reply is made after its headers are out: under a burst of streams asked at
// once, each request's work before its headers is then the route, decode, match and scenario
// step, and the replies are made as their first events come due, short first pauses first.
import { MockError } from '../conversation/errors.js';
import type { Plan, StreamEvent, StreamPart } from '../conversation/plan.js';
import { finished, type Steps } from '../conversation/steps.js';
import type { Pacing } from '../conversation/types.js';
import { inSlices } from '../state/event-loop.js';
import type { Notes } from './exchange.js';

type StreamPlan = Extract<Plan, { kind: 'stream' }>;

/** What making the reply gives: the stream's plan, and what the journal notes of the reply. */
export interface MadeStream {
  plan: StreamPlan;
  notes: Partial<Notes>;
}

/**
 * A stream plan that makes its reply when the writer asks (`make`, in slices), or when anything
 * reads its events first (at once: a batch line, a realtime socket, a drift comparison). Only what
 * is known before the reply is given up front (its status, no headers of the reply's own, its
 * pacing); the reply's notes complete the operation's own (`completes`) once made.
 */
export class LateStream {
  readonly kind = 'stream';
  readonly status = 200;
  readonly headers: Record<string, string> = {};
  private made: StreamPlan | undefined;
  private notes: Partial<Notes> | undefined;

  /**
   * `steps`: makes the reply and its plan (ids, time and pacing taken before, so the bytes are
   * those it would have had made at once). `failed`: the style's in-stream error, for a reply the
   * mock refuses only once it makes it.
   */
  constructor(
    readonly pacing: Pacing,
    private readonly steps: () => Steps<MadeStream>,
    private readonly failed: (error: MockError) => StreamEvent[],
  ) {}

  /** The operation's notes, which the reply's complete when it is made. */
  completes(notes: Partial<Notes>): void {
    this.notes = notes;
  }

  /**
   * Makes the reply, a slice of the loop at a time. A refusal of the mock's (a schema beyond the
   * generator's reach) comes after the headers: the stream is then the style's in-stream error, as
   * a scenario's `stream_error` at the first event; any other error is the writer's (the
   * connection is dropped, as for an error after the headers).
   */
  async make(): Promise<void> {
    if (this.made) return;
    try {
      this.take(await inSlices(this.steps()));
    } catch (error) {
      if (!(error instanceof MockError)) throw error;
      this.made = { kind: 'stream', status: 200, headers: {}, events: this.failed(error), pacing: this.pacing, streamError: this.failed };
    }
  }

  private take(made: MadeStream): void {
    if (this.notes) Object.assign(this.notes, made.notes);
    this.made = made.plan;
  }

  private get plan(): StreamPlan {
    if (!this.made) this.take(finished(this.steps()));
    return this.made!;
  }

  get events(): StreamEvent[] {
    return this.plan.events;
  }

  get parts(): readonly StreamPart[] | undefined {
    return this.plan.parts;
  }

  /** A property, as StreamedPlan's (chat.ts): the plan's readers may take it alone. */
  readonly streamError = (error: MockError, cutAt: number): StreamEvent[] => (this.made ? this.made.streamError(error, cutAt) : this.failed(error));
}
