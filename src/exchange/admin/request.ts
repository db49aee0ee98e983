// What an admin operation takes: the query, the headers and the parsed body, no HTTP. The same
// operations answer the `/__admin` routes and the MCP tools.
export interface AdminRequest {
  query: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: unknown;
  /** Path parameters, e.g. the journal entry's `id`. */
  params?: Record<string, string>;
  /** The body's size in characters, measured when it was parsed (0 without one). */
  bodySize?: number;
}

/** An answer that is not JSON (a fixture's YAML): the route writes it as is, with its type. */
export class TextAnswer {
  constructor(
    readonly contentType: string,
    readonly text: string,
  ) {}
}

/** A JSON answer whose status is not the route's own (a failed verify with `?fail=409`). */
export class JsonAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/**
 * The session an admin call is about: `?session=ID`, else the caller's own `x-mock-session`.
 * Absent, calls that can mean "every session" (journal, reset, scenario) do.
 */
export function sessionParam(request: AdminRequest): string | undefined {
  const query = request.query.session;
  if (typeof query === 'string' && query) return query;
  return request.headers['x-mock-session'] || undefined;
}
