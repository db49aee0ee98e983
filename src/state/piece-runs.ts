// A stream's events as the journal keeps them. Most of a stream is its content chunks, which
// differ only in their piece of text (styles/piece-events.ts): kept whole, 1 KB of text sent a
// token at a time is 60 KB of journal, and at a couple of thousand streams a second that churn
// kept V8's collector busy for a quarter of the CPU. So a run of such chunks is kept once, as the
// JSON around its piece, and the pieces of consecutive chunks as one array of strings (one
// JSON.stringify for them all); the events are made whole again when the entry is read.
import type { PieceRun } from '../conversation/plan.js';

/** An event as kept: whole, or the pieces of consecutive chunks of one run (`runs[run]`). */
type KeptEvent = { event: string | null; data: unknown } | { run: number; pieces: string[] };

export interface KeptEvents {
  events: KeptEvent[];
  runs?: Array<{ event: string | null; head: string; tail: string }>;
}

export interface ShownEvent {
  event: string | null;
  data: unknown;
}

/** The JSON of consecutive pieces of run `run`, kept as one, from their array's JSON (one `JSON.stringify` for them all). */
export function keptPiecesJson(run: number, piecesJson: string): string {
  return `{"run":${run},"pieces":${piecesJson}}`;
}

/** The JSON of the runs of a stream, as `runs` keeps them. */
export function runsJson(runs: readonly PieceRun[]): string {
  return JSON.stringify(runs.map((run) => ({ event: run.event ?? null, head: run.head, tail: run.tail })));
}

/** The events as they were sent: each piece inside the JSON around it. */
export function shownEvents({ events, runs }: KeptEvents): ShownEvent[] {
  if (!runs) return events as ShownEvent[];
  return events.flatMap((kept) => {
    if (!('run' in kept)) return [kept];
    const run = runs[kept.run]!;
    return kept.pieces.map((piece) => ({ event: run.event, data: JSON.parse(run.head + JSON.stringify(piece) + run.tail) as unknown }));
  });
}
