// What an admin operation takes: the query, the headers and the parsed body, no HTTP. The same
// operations answer the `/__admin` routes and the MCP tools.
export interface AdminRequest {
  query: Record<string, string>;
  /** The path's named segments (`:id`), for routes that have them. */
  params?: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: unknown;
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
