// Koa `ctx.state` as the shell uses it: what the frame and the route's first steps know about a
// request before its operation runs, and the notes the operation returned, for the journal.
import type { ShellContext } from './shell-context.js';
import type { Envelope } from '../conversation/errors.js';
import type { Door, Notes } from '../exchange/exchange.js';
import type { Session } from '../state/session.js';
import type { InFlight } from './in-flight.js';
import type { OpenStreams } from './open-streams.js';

export interface MockState {
  session: Session;
  /** The route's error envelope; every error of the request is rendered in it. */
  envelope: Envelope;
  /** The door of the route that took the request; none for an unknown URL. */
  door?: Door;
  notes: Notes;
  requestId: string;
  /** The server's streams being written, for a graceful shutdown. */
  streams: OpenStreams;
  /** Set by the auth step: the key's group, when keys are configured. */
  group?: string;
  keyScenario?: string;
  /** Set by the body parser: about the size of the parsed body in characters of JSON. */
  bodySize?: number;
  /**
   * Set by the body parser for a plain JSON body within the journal's bound: its UTF-8 bytes as
   * they came (the chunks themselves), which the journal keeps as they are rather than serialising
   * the parsed body again (for a coding agent's 100 KB prompt that was the largest part of a
   * request's work after the reading).
   */
  bodyBytes?: readonly Buffer[];
  /** Why the request was not forwarded to the upstream (its page's origin), for the journal. */
  upstreamRefused?: string;
  /**
   * Set as the request has been read whole, before it waits for its turn of the loop: where a
   * paced stream's clock starts (server/pacer.ts), so a burst's wait for the loop is part of each
   * stream's first pause rather than added to it.
   */
  readMs?: number;
  /** Set by the frame while the inspector watches: the request's start and its stream's progress. */
  inFlight?: InFlight;
  /** Set by a door that serves its own events (a fake MCP server's transport): no entry for the HTTP request itself. */
  unjournaled?: true;
  /** Set by the writer: what it actually sent, as the JSON of the journal's `response` (a SentResponse). */
  sent?: string;
  /** Set by the frame: `performance.now()` when the request came in. */
  startedMs: number;
  /**
   * Set by the frame: its end of the request (the log line and the served event, record.ts). A
   * write outside the frame (the writer's own tests) has none, and awaits the stream instead.
   */
  finish?: (ctx: ShellContext) => void;
  /**
   * Set by the writer once a stream's headers are out: the route returns without waiting for the
   * stream, which goes on on the pacing clock, and the frame's end runs when it ends (writer.ts).
   */
  detached?: true;
}
