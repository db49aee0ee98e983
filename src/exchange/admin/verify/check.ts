// Each kind of expectation checked against a session's journal, oldest first: whether it holds,
// what was seen, and a sentence saying both, naming the nearest entries when none matched.
import { formatUsd } from '../../../conversation/usage.js';
import { add, emptyTally, isGenerated, type JournalTally } from '../../../state/journal-tally.js';
import type { KeptEntry } from '../../../state/journal.js';
import type { CountSpec, Expectation, RequestFilter } from './expectation.js';
import { compileFilter, describeFilter, seenValue, type CompiledFilter } from './filter.js';

export interface VerifyResult {
  ok: boolean;
  expect: Expectation;
  /** The count, the ids or the totals seen. */
  actual: unknown;
  message: string;
}

/** How many of the nearest entries a message names. */
const NEAREST = 3;
/** How many ids a message lists before "and N more". */
const IDS_SHOWN = 5;

function ids(entries: readonly KeptEntry[]): string {
  const shown = entries.slice(0, IDS_SHOWN).map((entry) => entry.id);
  return entries.length > IDS_SHOWN ? `${shown.join(', ')} and ${entries.length - IDS_SHOWN} more` : shown.join(', ');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The entries that fail the fewest keys (the latest first among equals), each with what it had. */
function nearest(entries: readonly KeptEntry[], filter: CompiledFilter): string {
  if (entries.length === 0) return 'the journal holds no requests';
  // One pass keeping the best few: a full sort of a long journal would cost more than the check.
  const best: Array<{ entry: KeptEntry; failed: ReturnType<CompiledFilter['failed']> }> = [];
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    const failed = filter.failed(entry);
    if (best.length === NEAREST && failed.length >= best[NEAREST - 1]!.failed.length) continue;
    const at = best.findIndex((known) => failed.length < known.failed.length);
    best.splice(at === -1 ? best.length : at, 0, { entry, failed });
    best.length = Math.min(best.length, NEAREST);
  }
  const named = best.map(({ entry, failed }) => `${entry.id} (${entry.method} ${entry.path}: ${failed.map((key) => seenValue(entry, key)).join('; ')})`);
  return `nearest: ${named.join(', ')}`;
}

/** The bounds of a count, and the words that say them with their noun: `at least 1 request`. */
function countWords(spec: CountSpec): { min: number; max: number; words: string } {
  const noun = (n: number) => (n === 1 ? 'request' : 'requests');
  if (typeof spec === 'number') return { min: spec, max: spec, words: `exactly ${spec} ${noun(spec)}` };
  const min = spec.min ?? 0;
  const max = spec.max ?? Infinity;
  if (max === Infinity) return { min, max, words: `at least ${min} ${noun(min)}` };
  return { min, max, words: spec.min === undefined ? `at most ${max} ${noun(max)}` : `between ${min} and ${max} requests` };
}

function checkRequests(entries: readonly KeptEntry[], expect: { requests: RequestFilter; count?: CountSpec }): VerifyResult {
  const filter = compileFilter(expect.requests);
  const matched = entries.filter((entry) => filter.test(entry));
  const { min, max, words } = countWords(expect.count ?? { min: 1 });
  const ok = matched.length >= min && matched.length <= max;
  const what = `${words} matching ${describeFilter(expect.requests)}`;
  // The nearest entries help find why nothing matched; when none was wanted, they are not looked for.
  const saw = matched.length > 0 ? `saw ${matched.length}: ${ids(matched)}` : ok ? 'saw none' : `saw none (${nearest(entries, filter)})`;
  return { ok, expect, actual: matched.length, message: `${ok ? 'As expected' : 'Expected'} ${what}; ${saw}.` };
}

function checkSequence(list: readonly KeptEntry[], expect: { sequence: RequestFilter[] }): VerifyResult {
  const matched: string[] = [];
  let from = 0;
  for (const [step, wanted] of expect.sequence.entries()) {
    const filter = compileFilter(wanted);
    let at = from;
    while (at < list.length && !filter.test(list[at]!)) at++;
    if (at === list.length) {
      const after = matched.length === 0 ? '' : ` after ${matched.at(-1)}`;
      const earlier = list.slice(0, from).findLast((entry) => filter.test(entry));
      const why = earlier ? `${earlier.id} matched it, but before ${matched.at(-1)}` : nearest(list.slice(from), filter);
      const done = matched.length === 0 ? '' : `steps 1-${matched.length} matched ${matched.join(', ')}; `;
      const message = `Expected ${expect.sequence.length} requests in order; ${done}step ${step + 1} ${describeFilter(wanted)} matched no request${after} (${why}).`;
      return { ok: false, expect, actual: matched, message };
    }
    matched.push(list[at]!.id);
    from = at + 1;
  }
  return { ok: true, expect, actual: matched, message: `As expected, ${expect.sequence.length} requests in order: ${matched.join(', ')}.` };
}

function checkNoGenerated(journal: Journal, expect: { no_generated: true }): VerifyResult {
  // The tally says whether any was; only then are they looked for.
  if (journal.tally.generated === 0) return { ok: true, expect, actual: [], message: 'As expected, no request was answered by the generator.' };
  const generated = journal.entries.filter(isGenerated);
  const first = generated[0]!;
  const miss = first.near_miss ? ` (the closest fixture to ${first.id} was "${first.near_miss.fixture}", which failed on ${first.near_miss.failed.join(', ')})` : '';
  return {
    ok: false,
    expect,
    actual: generated.map((entry) => entry.id),
    message: `Expected every request answered by a fixture, a recording or a scenario; ${plural(generated.length, 'request')} got a generated answer: ${ids(generated)}${miss}.`,
  };
}

function checkMaxTokens({ tally: total }: Journal, expect: { max_tokens: number }): VerifyResult {
  const tokens = total.input_tokens + total.output_tokens;
  const ok = tokens <= expect.max_tokens;
  const saw = `${tokens} tokens (${total.input_tokens} input, ${total.output_tokens} output) over ${plural(total.requests, 'request')}`;
  return { ok, expect, actual: { tokens, input_tokens: total.input_tokens, output_tokens: total.output_tokens }, message: `${ok ? 'As expected' : 'Expected'} at most ${expect.max_tokens} tokens; the answers used ${saw}.` };
}

function checkMaxCost({ tally: total }: Journal, expect: { max_cost_usd: number }): VerifyResult {
  const ok = total.cost_usd <= expect.max_cost_usd;
  const unpriced = total.unpriced > 0 ? `; ${plural(total.unpriced, 'answer')} of models without pricing not counted` : '';
  const message = `${ok ? 'As expected' : 'Expected'} a cost of at most ${formatUsd(expect.max_cost_usd)}; the answers cost ${formatUsd(total.cost_usd)} over ${plural(total.requests, 'request')}${unpriced}.`;
  return { ok, expect, actual: { cost_usd: total.cost_usd, unpriced: total.unpriced }, message };
}

/** The journal a verify call checks: its entries and what they add up to. */
export interface Journal {
  /** Oldest first. */
  entries: readonly KeptEntry[];
  tally: JournalTally;
}

/** What the journals of `tallies`' sessions add up to together. */
export function tallied(tallies: readonly JournalTally[]): JournalTally {
  const total = emptyTally();
  for (const one of tallies) {
    add(total, one);
    total.generated += one.generated;
  }
  return total;
}

export function check(journal: Journal, expect: Expectation): VerifyResult {
  if ('requests' in expect) return checkRequests(journal.entries, expect);
  if ('sequence' in expect) return checkSequence(journal.entries, expect);
  if ('no_generated' in expect) return checkNoGenerated(journal, expect);
  if ('max_tokens' in expect) return checkMaxTokens(journal, expect);
  return checkMaxCost(journal, expect);
}
