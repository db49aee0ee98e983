// `GET /__admin/usage`: what each session's answers used and cost, in all and per model, from the
// usage and cost its journal entries were given when they were made.
import { add, count, emptyTotal, type UsageTotal } from '../../state/journal-tally.js';
import type { Session } from '../../state/session.js';
import type { Mock } from '../mock.js';
import { chosenSessions } from './journal.js';
import { sessionParam, type AdminRequest } from './request.js';

export interface SessionUsage extends UsageTotal {
  session: string;
  by_model: Array<UsageTotal & { model: string | null }>;
}

export function sessionUsage(session: Session): SessionUsage {
  const byModel = new Map<string | null, UsageTotal>();
  for (const entry of session.journal.toArray()) {
    let model = byModel.get(entry.model);
    if (!model) byModel.set(entry.model, (model = emptyTotal()));
    count(model, entry);
  }
  const { generated: _, ...total } = session.journalTally;
  return { session: session.id, ...total, by_model: [...byModel].map(([model, sum]) => ({ model, ...sum })) };
}

export function usage(mock: Mock, request: AdminRequest): unknown {
  const sessions = chosenSessions(mock, sessionParam(request)).map(sessionUsage);
  const total = emptyTotal();
  for (const session of sessions) add(total, session);
  return { sessions, total };
}
