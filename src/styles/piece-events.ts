// The content chunks of one stream differ only in their piece of text. One chunk is serialized
// with a marker for its piece, and every chunk's JSON is that text around its own piece: a whole
// JSON.stringify per token was most of what a stream cost. A chunk holds only where its piece is
// in the run's pieces until the writer asks for its JSON (a paced stream waits seconds for its
// last chunks, and a thousand open streams held every chunk's text from the start); its data
// object is built only if something reads it.
import type { PieceRun, StreamEvent } from '../conversation/plan.js';

const MARK = '\u0000piece\u0000';
const MARK_JSON = JSON.stringify(MARK);

/** What the chunks of one run of pieces share: the JSON around the piece, and how to build one whole. */
interface PieceTemplate extends PieceRun {
  readonly paced: boolean | undefined;
  readonly build: (piece: string) => StreamEvent;
}

class PieceEvent implements StreamEvent {
  constructor(
    readonly run: PieceTemplate,
    readonly at: number,
  ) {}

  get piece(): string {
    return this.run.pieces[this.at]!;
  }

  get event(): string | undefined {
    return this.run.event;
  }

  get paced(): boolean | undefined {
    return this.run.paced;
  }

  get json(): string {
    return this.run.head + JSON.stringify(this.piece) + this.run.tail;
  }

  get data(): unknown {
    return this.run.build(this.piece).data;
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
  const run: PieceTemplate = { event: template.event, paced: template.paced, head: json.slice(0, at), tail: json.slice(at + MARK_JSON.length), pieces, build };
  for (let i = 0; i < pieces.length; i++) events.push(new PieceEvent(run, i));
}
