// `GET` and `DELETE /v1/responses/{id}`: the responses the session kept. A stored response is
// answered whole, or with `?stream=true` replayed as its event stream.
import { invalid, MockError } from '../conversation/errors.js';
import { forget, type StoredResponse } from '../state/session.js';
import { replayEvents } from '../styles/responses/index.js';
import { json, newNotes, settle, type Exchange, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { pacingFor } from './pacing.js';

function storedResponse(exchange: Exchange): { id: string; stored: StoredResponse } {
  const id = exchange.params.id!;
  const stored = exchange.session.responses.get(id);
  if (!stored) throw new MockError('not_found', `Response with id '${id}' not found.`, { param: 'response_id' });
  return { id, stored };
}

/** Query values are strings, or lists of them when a parameter is repeated. */
function startingAfter(value: unknown): number {
  if (value === undefined) return -1;
  const number = Number(value);
  if (typeof value !== 'string' || !Number.isInteger(number)) throw invalid(`Invalid value for 'starting_after': expected an integer.`, 'starting_after');
  return number;
}

export function retrieveResponse(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('responses'), async () => {
    const { stored } = storedResponse(exchange);
    if (exchange.query.stream !== 'true') return json(stored.body);
    const events = replayEvents(stored.body, startingAfter(exchange.query.starting_after));
    const pacing = pacingFor(exchange.headers['x-mock-latency'] || undefined, undefined, mock.options.latency);
    return { plan: { kind: 'stream', status: 200, headers: {}, framing: 'sse', events, pacing } };
  });
}

export function deleteResponse(_mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('responses'), async () => {
    const { id } = storedResponse(exchange);
    forget(exchange.session, 'responses', id);
    return json({ id, object: 'response', deleted: true });
  });
}
