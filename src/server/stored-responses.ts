// `GET` and `DELETE /v1/responses/{id}`: the responses the session kept. A stored response is
// answered whole, or with `?stream=true` replayed as its event stream.
import type { Context } from 'koa';
import { invalid, MockError } from '../conversation/errors.js';
import type { StoredResponse } from '../state/session.js';
import { replayEvents } from '../styles/responses/index.js';
import type { Mock, MockState } from './context.js';
import { pacingFor } from './pacing.js';
import { write } from './writer.js';

function storedResponse(ctx: Context): { id: string; stored: StoredResponse } {
  const id = (ctx.params as { id: string }).id;
  const stored = (ctx.state as MockState).session.responses.get(id);
  if (!stored) throw new MockError('not_found', `Response with id '${id}' not found.`, { param: 'response_id' });
  return { id, stored };
}

function startingAfter(value: unknown): number {
  if (value === undefined) return -1;
  const number = Number(value);
  if (typeof value !== 'string' || !Number.isInteger(number)) {
    throw invalid(`Invalid value for 'starting_after': expected an integer.`, 'starting_after');
  }
  return number;
}

export function retrieveResponse(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const { stored } = storedResponse(ctx);
    if (ctx.query.stream !== 'true') return write(ctx, { kind: 'json', status: 200, headers: {}, body: stored.body });
    const events = replayEvents(stored.body, startingAfter(ctx.query.starting_after));
    const pacing = pacingFor(ctx.get('x-mock-latency') || undefined, undefined, mock.options.latency);
    return write(ctx, { kind: 'stream', status: 200, headers: {}, framing: 'sse', events, pacing });
  };
}

export function deleteResponse() {
  return async (ctx: Context): Promise<void> => {
    const { id } = storedResponse(ctx);
    (ctx.state as MockState).session.responses.delete(id);
    return write(ctx, { kind: 'json', status: 200, headers: {}, body: { id, object: 'response', deleted: true } });
  };
}
