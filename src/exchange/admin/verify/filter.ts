// A filter as a predicate over journal entries, and what an entry that fails it failed on. The
// cheap keys are tried first; the request body is parsed only for a `body` key, and only for an
// entry every other key let through.
import { requestBodyOf, type KeptEntry } from '../../../state/journal.js';
import type { RequestFilter } from './expectation.js';

/** A journal entry as verify reads it: the kept fields, the request body parsed on first use. */
export class Seen {
  private parsedBody: unknown;
  private bodyRead = false;

  constructor(readonly entry: KeptEntry) {}

  get body(): unknown {
    if (!this.bodyRead) {
      this.parsedBody = requestBodyOf(this.entry);
      this.bodyRead = true;
    }
    return this.parsedBody;
  }
}

/** Whether `actual` holds everything `wanted` holds: objects by key, arrays by element (in any order). */
export function contains(actual: unknown, wanted: unknown): boolean {
  if (Array.isArray(wanted)) return Array.isArray(actual) && wanted.every((item) => actual.some((got) => contains(got, item)));
  if (wanted !== null && typeof wanted === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const object = actual as Record<string, unknown>;
    return Object.entries(wanted).every(([key, value]) => key in object && contains(object[key], value));
  }
  return Object.is(actual, wanted);
}

type Key = keyof RequestFilter;

const listOf = (value: string | string[]): string[] => (Array.isArray(value) ? value : [value]);

/** Each key's test, cheapest first: `body` last, as it parses the request. */
const TESTS: { [K in Key]-?: (seen: Seen, wanted: NonNullable<RequestFilter[K]>) => boolean } = {
  path: (seen, wanted) => seen.entry.path === wanted,
  style: (seen, wanted) => seen.entry.style === wanted,
  model: (seen, wanted) => seen.entry.model === wanted,
  status: (seen, wanted) => seen.entry.status === wanted,
  source: (seen, wanted) => seen.entry.source.startsWith(wanted),
  fixture: (seen, wanted) => seen.entry.fixture === wanted,
  scenario: (seen, wanted) => seen.entry.scenario === wanted,
  text: (seen, wanted) => seen.entry.said?.text.includes(wanted) ?? false,
  tools_offered: (seen, wanted) => listOf(wanted).every((tool) => seen.entry.said?.tools.includes(tool) ?? false),
  tool_result: (seen, wanted) => seen.entry.said?.toolResults.includes(wanted) ?? false,
  body: (seen, wanted) => contains(seen.body, wanted),
};

const ORDER = Object.keys(TESTS) as Key[];

export interface CompiledFilter {
  readonly filter: RequestFilter;
  test(seen: Seen): boolean;
  /** The keys an entry fails, in the filter's order of cost. */
  failed(seen: Seen): Key[];
}

export function compileFilter(filter: RequestFilter): CompiledFilter {
  const checks = ORDER.filter((key) => filter[key] !== undefined).map((key) => {
    const test = TESTS[key] as (seen: Seen, wanted: unknown) => boolean;
    const wanted = filter[key];
    return { key, holds: (seen: Seen) => test(seen, wanted) };
  });
  return {
    filter,
    test: (seen) => checks.every((check) => check.holds(seen)),
    failed: (seen) => checks.filter((check) => !check.holds(seen)).map((check) => check.key),
  };
}

/** The filter as a message shows it: its keys in the order given. */
export function describeFilter(filter: RequestFilter): string {
  const keys = Object.entries(filter);
  return keys.length === 0 ? 'any request' : `{ ${keys.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(', ')} }`;
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

/** What an entry had where a key failed, e.g. `model was "gpt-4.1"`. */
export function seenValue(seen: Seen, key: Key): string {
  const { entry } = seen;
  switch (key) {
    case 'text':
      return `its last user message was ${JSON.stringify(clip(entry.said?.text ?? ''))}`;
    case 'tools_offered':
      return entry.said?.tools.length ? `it offered ${entry.said.tools.join(', ')}` : 'it offered no tools';
    case 'tool_result':
      return entry.said?.toolResults.length ? `it carried results of ${entry.said.toolResults.join(', ')}` : 'it carried no tool result';
    case 'body':
      return 'its body did not contain the one given';
    default:
      return `${key} was ${JSON.stringify(entry[key])}`;
  }
}
