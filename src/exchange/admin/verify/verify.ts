// `POST /__admin/verify` (SPEC 17): the test's oracle. Each expectation is checked against the
// journal of the session named (in the body, `?session=` or `x-mock-session`), else of every
// session, oldest first. A 200 either way, unless `?fail=409` asks a failure to say so. A hundred
// expectations over a long journal take seconds, so they are checked in slices (SPEC 11, "Time"),
// on the journal as it was when the call came.
import { check, tallied, type Journal, type VerifyResult } from './check.js';
import { verifyBody, type Expectation } from './expectation.js';
import { holdSlabs } from '../../../state/byte-slabs.js';
import { Slice } from '../../../state/event-loop.js';
import type { Mock } from '../../mock.js';
import { chosenSessions } from '../journal.js';
import { JsonAnswer, sessionParam, type AdminRequest } from '../request.js';

export interface VerifyAnswer {
  ok: boolean;
  results: VerifyResult[];
}

function journalOf(mock: Mock, session: string | undefined): Journal {
  const sessions = chosenSessions(mock, session);
  const entries = sessions.length === 1 ? sessions[0]!.journal.toArray() : sessions.flatMap((s) => s.journal.toArray());
  // Each session's entries are in order already; the sort is stable, so it keeps that order.
  if (sessions.length > 1) entries.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  return { entries, tally: tallied(sessions.map((s) => s.journalTally)) };
}

/** Each expectation failed: a misspelled session must not pass a budget over no requests. */
function unheardOf(session: string, expect: readonly Expectation[]): VerifyResult[] {
  const message =
    `The mock never heard of session '${session}': no model request carried it, and no session-scoped write or ` +
    'POST /__admin/sessions named it. Check its spelling, or announce it first if asking nothing is the point.';
  return expect.map((one) => ({ ok: false, expect: one, actual: null, message }));
}

export async function verify(mock: Mock, request: AdminRequest): Promise<VerifyAnswer | JsonAnswer> {
  const body = verifyBody(request.body);
  const session = body.session ?? sessionParam(request);
  let results: VerifyResult[] = [];
  if (session !== undefined && !mock.sessions.peek(session)?.heard) results = unheardOf(session, body.expect);
  else {
    const journal = journalOf(mock, session);
    // Entries leaving the journal between slices are still read here: their slabs wait.
    const reading = holdSlabs();
    try {
      const slice = new Slice();
      for (const expect of body.expect) {
        if (slice.over) await slice.next();
        results.push(check(journal, expect));
      }
    } finally {
      reading();
    }
  }
  const answer = { ok: results.every((result) => result.ok), results };
  if (!answer.ok && request.query.fail === '409') return new JsonAnswer(409, answer);
  return answer;
}
