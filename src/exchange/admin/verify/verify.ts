// `POST /__admin/verify` (SPEC 17): the test's oracle. Each expectation is checked against the
// journal of the session named (in the body, `?session=` or `x-mock-session`), else of every
// session, oldest first. A 200 either way, unless `?fail=409` asks a failure to say so.
import { Seen } from './filter.js';
import { check, type VerifyResult } from './check.js';
import { verifyBody } from './expectation.js';
import type { Mock } from '../../mock.js';
import { chosenSessions } from '../journal.js';
import { JsonAnswer, sessionParam, type AdminRequest } from '../request.js';

export interface VerifyAnswer {
  ok: boolean;
  results: VerifyResult[];
}

function journalOf(mock: Mock, session: string | undefined): Seen[] {
  const sessions = chosenSessions(mock, session);
  const seen = sessions.flatMap((s) => s.journal.toArray().map((entry) => new Seen(entry)));
  // Each session's entries are in order already; the sort is stable, so it keeps that order.
  if (sessions.length > 1) seen.sort((a, b) => (a.entry.time < b.entry.time ? -1 : a.entry.time > b.entry.time ? 1 : 0));
  return seen;
}

export function verify(mock: Mock, request: AdminRequest): VerifyAnswer | JsonAnswer {
  const body = verifyBody(request.body);
  const entries = journalOf(mock, body.session ?? sessionParam(request));
  const results = body.expect.map((expect) => check(entries, expect));
  const answer = { ok: results.every((result) => result.ok), results };
  if (!answer.ok && request.query.fail === '409') return new JsonAnswer(409, answer);
  return answer;
}
