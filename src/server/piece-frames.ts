// An unpaced stream's content chunks, framed a run at a time. The chunks of one run differ only in
// their piece (styles/piece-events.ts), so their frames are one JSON.stringify of the pieces'
// array, whose items are the pieces' JSON texts separated by `","` (a quote inside a JSON string
// is escaped, so that never occurs within one), with that separator replaced by the text between
// two chunks' pieces: one flat text for the run, the very bytes of framing each chunk alone,
// without a JSON text, five concatenations and a frame per token.
import type { PieceRun, StreamEvent } from '../conversation/plan.js';
import type { Framer } from './framers.js';

const MARK = '\u0000data\u0000';
/** Chunks framed in one go at most, so a long stream still goes out a slice of the loop at a time. */
const RUN_MAX = 256;

export interface FramedRun {
  readonly run: PieceRun;
  readonly pieces: string[];
  /** The pieces' array as JSON, which the journal keeps them as. */
  readonly piecesJson: string;
  readonly text: string;
}

/** The text a framer puts before and after an event's data in every frame but a stream's first; none for a framing in bytes. */
function around(framer: Framer, name: string | undefined): [string, string] | undefined {
  const frame = framer.frame({ name, data: MARK, json: true }, 1);
  if (typeof frame !== 'string') return undefined;
  const at = frame.indexOf(MARK);
  return at < 0 ? undefined : [frame.slice(0, at), frame.slice(at + MARK.length)];
}

/**
 * The chunks of one run from `events[from]` on, before `to`, framed together; none when that
 * event is no chunk of a run, fewer than two follow, it is the stream's first event (`framed` 0,
 * which a framer may open the stream with) or the framing is in bytes.
 */
export function framedRun(events: readonly StreamEvent[], from: number, to: number, framer: Framer, framed: number): FramedRun | undefined {
  const run = events[from]!.run;
  if (run === undefined || framed === 0) return undefined;
  const end = Math.min(to, events.length, from + RUN_MAX);
  const pieces: string[] = [];
  for (let i = from; i < end && events[i]!.run === run; i++) pieces.push(events[i]!.piece!);
  if (pieces.length < 2) return undefined;
  const sides = around(framer, run.event);
  if (sides === undefined) return undefined;
  const open = sides[0] + run.head;
  const close = run.tail + sides[1];
  // `$` in a replacement names a match: written `$$`, it stays itself.
  const between = `"${close}${open}"`.replaceAll('$', '$$$$');
  const piecesJson = JSON.stringify(pieces);
  return { run, pieces, piecesJson, text: `${open}${piecesJson.slice(1, -1).replaceAll('","', between)}${close}` };
}
