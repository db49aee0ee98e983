// What a door says of an answer once it is through, made into the one served event: the notes as
// the journal entry's fields, priced at the model's catalog pricing, the same for every door.
import { costUsd } from '../conversation/usage.js';
import { isoTimeOf } from '../state/clock.js';
import { saidOf, type EntryFields } from '../state/journal.js';
import type { ServedEvent } from '../state/served.js';
import type { Session } from '../state/session.js';
import { sourceOf, type Notes } from './exchange.js';
import type { Mock } from './mock.js';

export interface ServedAnswer {
  id: string;
  /** Left out: the mock clock's now. A batch's line is answered as at its own time. */
  time?: string;
  session: Session;
  method: string;
  path: string;
  /** The route as its table writes it, or `-` where none took the request. */
  route: string;
  /** The GenAI operation the door performs (its spans' name), or `-` where no door took the request. */
  operation: string;
  status: number;
  notes: Notes;
  /** `performance.now()` when the request came in and when its answer was through. */
  startMs: number;
  endMs: number;
  headers: ServedEvent['headers'];
  /** The JSON of the request body (see ServedEvent), and the JSON text of what was sent (`null` when nothing was). */
  body: ServedEvent['body'];
  response: string;
  /** Left out: as the notes say. What no route answered decided no reply: `-`. */
  source?: string;
  /** Why a request that could have been forwarded was not (a page of another site). */
  upstreamRefused?: string | null;
  /** The batch a line was answered for. */
  batch?: string | null;
  /** The fake MCP server's tool a call was answered by. */
  mcp?: EntryFields['mcp'];
}

export function serve(mock: Mock, answer: ServedAnswer): void {
  const { notes, session } = answer;
  const pricing = notes.model === null ? undefined : mock.store.current.modelById.get(notes.model)?.pricing;
  mock.served({
    entry: {
      id: answer.id,
      time: answer.time ?? isoTimeOf(mock.clock.now()),
      session: session.id,
      method: answer.method,
      path: answer.path,
      style: notes.style,
      model: notes.model,
      status: answer.status,
      fixture: notes.fixture,
      scenario: notes.scenario,
      duration_ms: Math.round((answer.endMs - answer.startMs) * 10) / 10,
      near_miss: notes.nearMiss,
      source: answer.source ?? sourceOf(notes, answer.status) ?? '-',
      scenario_step: notes.scenarioStep,
      fault: notes.fault,
      upstream: notes.upstream,
      upstream_refused: answer.upstreamRefused ?? null,
      recorded: notes.recorded,
      usage: notes.metered?.tokens ?? null,
      cost_usd: costUsd(pricing, notes.metered),
      said: notes.subject && saidOf(notes.subject.lastUser, notes.subject.tools, notes.subject.toolResults),
      batch: answer.batch ?? null,
      mcp: answer.mcp ?? null,
    },
    session,
    route: answer.route,
    operation: answer.operation,
    startMs: answer.startMs,
    endMs: answer.endMs,
    headers: answer.headers,
    finishReasons: notes.finishReasons,
    body: answer.body,
    response: answer.response,
  });
}
