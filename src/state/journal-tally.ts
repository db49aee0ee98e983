// What a session's journal adds up to (requests, tokens, cost, answers the generator made), kept
// as entries come and go, so `verify`'s budgets and `no_generated` and `GET /__admin/usage`'s
// totals are read, not summed over every entry at each call (SPEC 17).
import { roundUsd } from '../conversation/usage.js';
import type { KeptEntry } from './journal.js';

export interface UsageTotal {
  requests: number;
  input_tokens: number;
  output_tokens: number;
  /** Of the priced answers; `unpriced` counts those whose model has no pricing. */
  cost_usd: number;
  unpriced: number;
}

export interface JournalTally extends UsageTotal {
  /** Chats, completions and embeddings, which a fixture may answer, that the generator answered. */
  generated: number;
}

/** Requests whose answer is a chat, a completion or an embedding, which a fixture may answer. */
const ANSWERABLE = /\/(chat\/completions|completions|responses|messages|embeddings)$|:(generateContent|streamGenerateContent|embedContent|batchEmbedContents)$/;

/** Whether the generator answered a request a fixture could have answered. */
export function isGenerated(entry: Pick<KeptEntry, 'source' | 'status' | 'path'>): boolean {
  return entry.source === 'generated' && entry.status < 400 && ANSWERABLE.test(entry.path);
}

export function emptyTotal(): UsageTotal {
  return { requests: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, unpriced: 0 };
}

export function emptyTally(): JournalTally {
  return { ...emptyTotal(), generated: 0 };
}

/**
 * Adds one entry to a running total, or takes it away (`sign` -1). Costs are whole multiples of
 * 1e-10 dollars (roundUsd), so rounding each step keeps a total exact whatever the order.
 */
export function count(total: UsageTotal, entry: Pick<KeptEntry, 'usage' | 'cost_usd'>, sign: 1 | -1 = 1): void {
  total.requests += sign;
  total.input_tokens += sign * (entry.usage?.input_tokens ?? 0);
  total.output_tokens += sign * (entry.usage?.output_tokens ?? 0);
  if (entry.cost_usd === null) {
    if (entry.usage !== null) total.unpriced += sign;
  } else total.cost_usd = roundUsd(total.cost_usd + sign * entry.cost_usd);
}

export function add(into: UsageTotal, more: UsageTotal): void {
  into.requests += more.requests;
  into.input_tokens += more.input_tokens;
  into.output_tokens += more.output_tokens;
  into.cost_usd = roundUsd(into.cost_usd + more.cost_usd);
  into.unpriced += more.unpriced;
}

/** Counts an entry journaled (`sign` 1) or gone from the journal (-1). */
export function tally(into: JournalTally, entry: KeptEntry, sign: 1 | -1): void {
  count(into, entry, sign);
  if (isGenerated(entry)) into.generated += sign;
}
