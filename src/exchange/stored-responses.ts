// The responses the session kept: `GET` (whole, or with `?stream=true` replayed as its event
// stream), `DELETE`, `POST .../cancel` for background ones, and `GET .../input_items`.
import * as z from 'zod';
import { madeAtFirstUse } from '../conversation/first-use.js';
import { failure, invalid, type MockError } from '../conversation/errors.js';
import { ResponseParts } from '../state/response-parts.js';
import { forget, keep, type Session, type StoredResponse } from '../state/session.js';
import { formInt } from '../styles/form.js';
import { BACKGROUND_MS, pendingEvents, responseAt, runState } from '../styles/responses/background.js';
import type { ResponseObject } from '../styles/responses/encode.js';
import { failureEvents } from '../styles/responses/events.js';
import { replayEvents } from '../styles/responses/index.js';
import { itemPage } from '../styles/responses/input-items.js';
import type { StoredReply } from '../styles/style.js';
import { parseBody } from '../styles/validate.js';
import { json, type Exchange } from './exchange.js';
import { plainOperation } from './operation.js';
import { pacingFor } from './pacing.js';

/** Keeps a reply the style stores; a background one shows as queued for its first second. */
/** `bytes`: about what the stored response holds, for the session's memory budget. */
export function keepResponse(session: Session, kept: StoredReply, nowMs: number, bytes: number): StoredResponse {
  const stored: StoredResponse = {
    previous: kept.previous,
    turns: kept.turns,
    parts: new ResponseParts(kept.body, kept.inputItems),
    ...(kept.background ? { background: { readyMs: nowMs + BACKGROUND_MS, cancelled: false } } : {}),
  };
  keep(session, 'responses', kept.id, stored, bytes);
  return stored;
}

/** The stored response as it stands now on the mock clock. */
export function shownResponse(stored: StoredResponse, nowMs: number): ResponseObject {
  return responseAt(stored.parts.body as ResponseObject, stored.background, nowMs);
}

function storedResponse(exchange: Exchange): { id: string; stored: StoredResponse } {
  const id = exchange.params.id!;
  const stored = exchange.session.responses.get(id);
  if (!stored) throw failure('response_not_found', `Response with id '${id}' not found.`, { param: 'response_id' });
  return { id, stored };
}

/** Query values are strings, or lists of them when a parameter is repeated. */
function startingAfter(value: unknown): number {
  if (value === undefined) return -1;
  const number = Number(value);
  if (typeof value !== 'string' || !Number.isInteger(number)) throw invalid(`Invalid value for 'starting_after': expected an integer.`, 'starting_after');
  return number;
}

export const retrieveResponse = plainOperation((mock, exchange) => {
  const { stored } = storedResponse(exchange);
  const now = mock.clock.now();
  const shown = shownResponse(stored, now);
  const notes = { model: shown.model as string };
  if (exchange.query.stream !== 'true') return { ...json(shown), notes };
  const after = startingAfter(exchange.query.starting_after);
  const finished = runState(stored.background, now) === 'done';
  const events = finished ? replayEvents(shown, after) : pendingEvents(shown).filter((_, at) => at > after);
  const pacing = pacingFor(exchange.headers['x-mock-latency'] || undefined, undefined, mock.options.latency);
  const streamError = (error: MockError, cutAt: number) => failureEvents(error, { response: shown, cutAt });
  return { plan: { kind: 'stream', status: 200, headers: {}, events, pacing, streamError }, notes };
});

export const deleteResponse = plainOperation((_mock, exchange) => {
  const { id } = storedResponse(exchange);
  forget(exchange.session, 'responses', id);
  return json({ id, object: 'response', deleted: true });
});

/** `POST /v1/responses/{id}/cancel`: only a background response still queued can be cancelled. */
export const cancelResponse = plainOperation((mock, exchange) => {
  const { id, stored } = storedResponse(exchange);
  const now = mock.clock.now();
  if (!stored.background) throw failure('response_not_cancellable', `Response '${id}' was not created with background: true; only background responses can be cancelled.`);
  if (runState(stored.background, now) === 'done') throw failure('response_not_cancellable', `Response '${id}' has already completed and cannot be cancelled.`);
  stored.background.cancelled = true;
  return json(shownResponse(stored, now));
});

const itemsQuery = madeAtFirstUse(() =>
  z.looseObject({
    after: z.string().min(1).optional(),
    limit: formInt(1, 100).optional(),
    order: z.enum(['asc', 'desc']).optional(),
  }),
);

/** `GET /v1/responses/{id}/input_items`, newest first unless `order=asc`, as the vendor pages it. */
export const listInputItems = plainOperation((_mock, exchange) => {
  const { stored } = storedResponse(exchange);
  const query = parseBody(itemsQuery(), { ...exchange.query });
  const page = itemPage(stored.parts.inputItems, { after: query.after, limit: query.limit ?? 20, order: query.order ?? 'desc' });
  if (!page) throw invalid(`Invalid value for 'after': no input item '${query.after}' in this response.`, 'after');
  return json(page);
});
