// A door that stays open (a realtime socket, a fake MCP server's stream) as a session-shaped
// operation: opened once in a mock session with what its opening request said, then answered
// turn after turn, each turn a plain request through an operation on the template and one served
// event, as a request sent alone would be; then closed. The protocol (the socket, its frames and
// events) stays with the door, which writes each turn's outcome its own way.
import { MockError } from '../conversation/errors.js';
import { doorOperation, newNotes, type Door, type Exchange, type Operation, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { nextRequestId } from './request.js';
import { serve } from './served.js';

/** What a turn sent, as the journal keeps it. */
export interface Sent {
  status: number;
  /** The JSON text of what was sent, as an entry's `response` (`{"status":…,"headers":…,"body":…}`). */
  response: string;
}

/** The door a live session speaks through. */
export interface LiveDoor {
  /** Names the turns (the journal's style) and the envelope their errors are written in. */
  door: Door;
  /** The opening's route as its table writes it: metrics and spans label every turn with it. */
  route: string;
  /** Writes a turn's outcome in the door's own framing, and says what was sent. */
  write(outcome: Outcome, requestId: string): Promise<Sent>;
}

export interface LiveSession {
  /** What the opening request said: its session, path, headers, query, caller and origin hold for every turn. */
  readonly opening: Exchange;
  /** Answers `body` through `operation`, writes it through the door and serves it: the turn's outcome. */
  turn(operation: Operation, body: unknown): Promise<Outcome>;
  /** No turn is taken after it. */
  close(): void;
}

/** The operation's outcome; a fault of the mock's own is the turn's server error, as over HTTP, so the turn is still served. */
async function answered(mock: Mock, exchange: Exchange, operation: Operation, door: Door): Promise<Outcome> {
  try {
    return await operation(mock, exchange, door);
  } catch (error) {
    if (!(error instanceof MockError)) mock.log('error', `${exchange.method} ${exchange.path} turn: ${(error as Error).stack ?? String(error)}`);
    const failed = error instanceof MockError ? error : new MockError('server_error', 'The mock hit an internal error; see its log.');
    return { notes: newNotes(door.style), headers: {}, envelope: door.envelope(exchange), error: failed };
  }
}

export function openLiveSession(mock: Mock, opening: Exchange, live: LiveDoor): LiveSession {
  let open = true;
  return {
    opening,
    async turn(operation, body) {
      if (!open) throw new Error(`The live session opened at ${opening.path} is closed: it takes no more turns.`);
      const startMs = performance.now();
      const requestId = nextRequestId(mock, opening.session.id);
      const text = JSON.stringify(body);
      // Answered by the mock alone: forwarding a turn needs the upstream's own protocol for it,
      // which no door speaks yet.
      const exchange: Exchange = { ...opening, body, bodySize: text.length, rawBody: undefined, upstream: undefined, requestId };
      const outcome = await answered(mock, exchange, operation, live.door);
      const sent = await live.write(outcome, requestId);
      serve(mock, {
        id: requestId,
        session: opening.session,
        method: opening.method,
        path: opening.path,
        route: live.route,
        operation: doorOperation(live.door),
        status: sent.status,
        notes: outcome.late ? { ...outcome.notes, ...(await outcome.late) } : outcome.notes,
        startMs,
        endMs: performance.now(),
        headers: opening.headers,
        body: text,
        response: sent.response,
      });
      return outcome;
    },
    close() {
      open = false;
    },
  };
}
