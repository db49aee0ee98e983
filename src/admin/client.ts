// One way to call the admin API whatever carries it: in the mock's own process (the operations
// of ADMIN_ROUTES run directly) or over HTTP (the stdio bridge beside a running mock). The MCP
// tools take an AdminClient, so they are the same over both transports.
import { MockError } from '../conversation/errors.js';
import { JsonAnswer, TextAnswer, type AdminRequest } from '../exchange/admin/request.js';
import type { Mock } from '../exchange/mock.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import { pathParams } from '../styles/path-pattern.js';
import { turnForRequest } from '../state/event-loop.js';
import { ADMIN_ROUTES, type AdminRoute } from './routes.js';

export type AdminMethod = AdminRoute['method'];

export interface AdminCall {
  query?: Record<string, string | undefined>;
  body?: unknown;
}

/** What the admin API answered: the status and the body (parsed JSON, or the text). */
export interface AdminAnswer {
  status: number;
  body: unknown;
}

export interface AdminClient {
  /** `path` is below `/__admin`, e.g. `/requests`. */
  call(method: AdminMethod, path: string, call?: AdminCall): Promise<AdminAnswer>;
}

/** The query without its absent values. */
export function definedQuery(query: AdminCall['query'] = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function errorAnswer(error: MockError): AdminAnswer {
  const { status, body } = openaiEnvelope(error);
  return { status, body };
}

export function inProcessAdmin(mock: Mock): AdminClient {
  // The messages of a JSON-RPC batch are dispatched together: each call waits for a turn of the
  // loop with time left, so ten journal pages never hold the loop as one (state/event-loop.ts).
  return {
    call: (method, path, call = {}) => {
      const turn = turnForRequest();
      return turn ? turn.then(() => run(mock, method, path, call)) : run(mock, method, path, call);
    },
  };
}

async function run(mock: Mock, method: AdminMethod, path: string, call: AdminCall): Promise<AdminAnswer> {
  for (const route of ADMIN_ROUTES) {
    const params = route.method === method ? pathParams(route.path, `/__admin${path}`) : undefined;
    if (!params) continue;
    const request: AdminRequest = { query: definedQuery(call.query), params, headers: {}, body: call.body };
    try {
      const result = await route.run(mock, request);
      if (result instanceof JsonAnswer) return { status: result.status, body: result.body };
      return { status: route.status, body: result instanceof TextAnswer ? result.text : result };
    } catch (error) {
      if (error instanceof MockError) return errorAnswer(error);
      throw error;
    }
  }
  return errorAnswer(new MockError('not_found', `Unknown request URL: ${method} /__admin${path}.`, { code: 'unknown_url' }));
}
