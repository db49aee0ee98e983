// One served event per answer, whatever door it left by (an HTTP request, a batch's line, later a
// socket's turn or a fake MCP tool's call), like WireMock's ServeEvent. The journal, the
// inspector's events, metrics and spans are its listeners, assembled with the mock: a door only
// says what it served, and none can forget one of them.
import type { EventHub } from './events.js';
import { keptEntry, shownEntryJson, type EntryFields } from './journal.js';
import type { Metrics } from './metrics.js';
import { journal, type Session } from './session.js';

export interface ServedEvent {
  /** The journal entry's fields: what was asked, who answered, its status, source, usage and cost. */
  readonly entry: EntryFields;
  readonly session: Session;
  /** The route as its table writes it (`/v1/videos/:id`), or `-` where none took the request. */
  readonly route: string;
  /** The GenAI operation the door performs, as its spans are named. */
  readonly operation: string;
  /** `performance.now()` when the request came in and when its answer was through. */
  readonly startMs: number;
  readonly endMs: number;
  /** What the request came with, for trace context (`traceparent`, `tracestate`). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly finishReasons: readonly string[] | null;
  /**
   * The JSON of the request body: JSON.stringify's text, or the UTF-8 bytes of the client's own
   * in the chunks they came in (its spacing, its escapes: see `requestBodyTextOf`); and the JSON
   * text of what was sent
   * (`null` when nothing was).
   */
  readonly body: string | readonly Buffer[];
  readonly response: string;
}

export type ServedListener = (event: ServedEvent) => void;

export const journalServed: ServedListener = (event) => journal(event.session, keptEntry(event.entry, event.body, event.response));

/** Announces the entry to the inspector; nothing is built while nobody watches. */
export function announceServed(events: EventHub): ServedListener {
  return (event) => {
    if (events.watchers > 0) events.publishJson('request', shownEntryJson(event.entry, event.body, event.response));
  };
}

export function countServed(metrics: Metrics): ServedListener {
  return ({ entry, route, startMs, endMs }) =>
    metrics.observe({
      route,
      style: entry.style ?? '-',
      status: entry.status,
      source: entry.source,
      seconds: (endMs - startMs) / 1000,
      model: entry.model,
      usage: entry.usage,
      costUsd: entry.cost_usd,
      upstreamStatus: entry.upstream?.status ?? null,
    });
}

/** One `served` that every listener hears, in the order given. */
export function servedTo(listeners: readonly ServedListener[]): ServedListener {
  return (event) => {
    for (const listener of listeners) listener(event);
  };
}
