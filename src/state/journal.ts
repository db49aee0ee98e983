// One journal entry per request (admin requests and preflights excepted): what was asked,
// what answered it, and for an unmatched chat request the closest fixture.

export interface NearMiss {
  fixture: string;
  file: string;
  failed: string[];
}

/** A stream event as the client received it: the SSE event name (or null) and its data. */
export interface SentEvent {
  event: string | null;
  /** The JSON the event carried, or its text when it is not JSON (`[DONE]`). */
  data: unknown;
}

/**
 * What was answered, as written: a whole body (JSON as an object, other text as a string, binary
 * as its type and size) or a stream's events; `truncated` when cut to keep the entry under 1 MB.
 */
export type SentResponse = {
  status: number;
  headers: Record<string, unknown>;
  truncated?: true;
} & ({ body: unknown } | { events: SentEvent[] });

export interface JournalEntry {
  id: string;
  time: string;
  session: string;
  method: string;
  path: string;
  style: string | null;
  model: string | null;
  status: number;
  fixture: string | null;
  scenario: string | null;
  duration_ms: number;
  body: unknown;
  near_miss: NearMiss | null;
  /** Where the answer came from, as the `x-mock-source` header says it. */
  source: string;
  scenario_step: number | null;
  fault: string | null;
  /** Null when nothing was written (a dropped socket, a client gone before the answer). */
  response: SentResponse | null;
  upstream: { url: string; status: number; duration_ms: number } | null;
  recorded: string | null;
}
