// The content chunks of one stream differ only in their piece of text. One chunk is serialized
// with a marker for its piece, and every chunk's JSON is that text around its own piece: a whole
// JSON.stringify per token was most of what a stream cost. The writer frames that JSON and the
// journal keeps it; a chunk's data object is built only if something reads it.
import type { StreamEvent } from '../conversation/plan.js';

const MARK = '\u0000piece\u0000';
const MARK_JSON = JSON.stringify(MARK);

class PieceEvent implements StreamEvent {
  constructor(
    readonly event: string | undefined,
    readonly paced: boolean | undefined,
    readonly json: string,
    private readonly piece: string,
    private readonly build: (piece: string) => StreamEvent,
  ) {}

  get data(): unknown {
    return this.build(this.piece).data;
  }
}

/**
 * Appends one event per piece to `events`, as `build` makes them. `build` must put the piece in
 * its data as one string value and nowhere else; a chunk where the marker does not occur exactly
 * once is serialized whole, event by event.
 */
export function pushPieces(events: StreamEvent[], pieces: readonly string[], build: (piece: string) => StreamEvent): void {
  if (pieces.length === 0) return;
  const template = build(MARK);
  const json = JSON.stringify(template.data);
  const at = json.indexOf(MARK_JSON);
  if (at < 0 || json.indexOf(MARK_JSON, at + 1) >= 0) {
    for (const piece of pieces) events.push(build(piece));
    return;
  }
  const head = json.slice(0, at);
  const tail = json.slice(at + MARK_JSON.length);
  for (const piece of pieces) events.push(new PieceEvent(template.event, template.paced, head + JSON.stringify(piece) + tail, piece, build));
}
