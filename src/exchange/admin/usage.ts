// `GET /__admin/usage`: what each session's answers used and cost, in all and per model, from the
// usage and cost its journal entries were given when they were made.
import { roundUsd } from '../../conversation/usage.js';
import type { KeptEntry } from '../../state/journal.js';
import type { Session } from '../../state/session.js';
import type { Mock } from '../mock.js';
import { chosenSessions } from './journal.js';
import { sessionParam, type AdminRequest } from './request.js';

export interface UsageTotal {
  requests: number;
  input_tokens: number;
  output_tokens: number;
  /** Of the priced answers; `unpriced` counts those whose model has no pricing. */
  cost_usd: number;
  unpriced: number;
}

export interface SessionUsage extends UsageTotal {
  session: string;
  by_model: Array<UsageTotal & { model: string | null }>;
}

export function emptyTotal(): UsageTotal {
  return { requests: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, unpriced: 0 };
}

/** Adds one entry to a running total. */
export function count(total: UsageTotal, entry: Pick<KeptEntry, 'usage' | 'cost_usd'>): void {
  total.requests += 1;
  total.input_tokens += entry.usage?.input_tokens ?? 0;
  total.output_tokens += entry.usage?.output_tokens ?? 0;
  if (entry.cost_usd === null) {
    if (entry.usage !== null) total.unpriced += 1;
  } else total.cost_usd = roundUsd(total.cost_usd + entry.cost_usd);
}

export function add(into: UsageTotal, more: UsageTotal): void {
  into.requests += more.requests;
  into.input_tokens += more.input_tokens;
  into.output_tokens += more.output_tokens;
  into.cost_usd = roundUsd(into.cost_usd + more.cost_usd);
  into.unpriced += more.unpriced;
}

export function sessionUsage(session: Session): SessionUsage {
  const total = emptyTotal();
  const byModel = new Map<string | null, UsageTotal>();
  for (const entry of session.journal.toArray()) {
    count(total, entry);
    let model = byModel.get(entry.model);
    if (!model) byModel.set(entry.model, (model = emptyTotal()));
    count(model, entry);
  }
  return { session: session.id, ...total, by_model: [...byModel].map(([model, sum]) => ({ model, ...sum })) };
}

export function usage(mock: Mock, request: AdminRequest): unknown {
  const sessions = chosenSessions(mock, sessionParam(request)).map(sessionUsage);
  const total = emptyTotal();
  for (const session of sessions) add(total, session);
  return { sessions, total };
}
