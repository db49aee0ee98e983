// `POST /__admin/clock`: moves the mock clock, so tests step video tasks, batches and rate windows
// instead of sleeping. On a real clock it adds an offset; manual and fixed clocks jump.
import * as z from 'zod';
import { madeAtFirstUse } from '../../conversation/first-use.js';
import { invalid } from '../../conversation/errors.js';
import { announceTaskChanges } from '../../media/task-events.js';
import { LATEST_TIME, type Clock } from '../../state/clock.js';
import { parseBody } from '../../styles/validate.js';
import { catchUpAll } from '../batch-run.js';
import { lineRoute } from '../model-routes.js';
import type { Mock } from '../mock.js';
import type { AdminRequest } from './request.js';

// An ISO 8601 date, with or without a time; Date.parse alone also takes "March 7" and the like.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const clockBody = madeAtFirstUse(() =>
  z.strictObject({
    advance_ms: z.number().int().nonnegative().optional(),
    set: z
      .string()
      .refine((value) => ISO_TIME.test(value) && !Number.isNaN(Date.parse(value)), 'expected an ISO 8601 time such as 2025-01-01T00:00:00Z')
      .optional(),
  }),
);

export function clockState(clock: Clock) {
  const now = clock.now();
  return { mode: clock.mode, now: new Date(now).toISOString(), now_ms: now };
}

export function moveClock(clock: Clock, body: unknown): void {
  const move = parseBody(clockBody(), body);
  if (move.advance_ms === undefined && move.set === undefined) {
    throw invalid('Send { "advance_ms": N } or { "set": "<ISO time>" }.', 'advance_ms', 'missing_required_parameter');
  }
  if (move.advance_ms !== undefined && move.set !== undefined) {
    throw invalid('Send either advance_ms or set, not both.', 'set');
  }
  if (move.set !== undefined) {
    clock.set(Date.parse(move.set));
    return;
  }
  // Past it, every timestamp (journal, ids, headers) of every later request would throw.
  if (clock.now() + move.advance_ms! > LATEST_TIME) {
    throw invalid(`Invalid value for 'advance_ms': the clock would pass ${new Date(LATEST_TIME).toISOString()}, the latest time a date holds.`, 'advance_ms');
  }
  clock.advance(move.advance_ms!);
}

export function readClock(mock: Mock): unknown {
  return clockState(mock.clock);
}

export function postClock(mock: Mock, request: AdminRequest): unknown {
  moveClock(mock.clock, request.body);
  announceTaskChanges(mock.events, mock.sessions, mock.clock.now());
  // Batches answer the lines the clock passed in the background, in slices; a read waits for it.
  catchUpAll(mock, lineRoute).catch((error: Error) => mock.log('error', `batches could not catch up with the clock: ${error.stack ?? error.message}`));
  return clockState(mock.clock);
}
