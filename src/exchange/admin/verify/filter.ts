// A filter as a predicate over journal entries, and what an entry that fails it failed on. The
// cheap keys are tried first; the request body is read only for a `body` key, only for an entry
// every other key let through, and then only what the filter names, from its text (contains.ts).
import { requestBodyTextOf, type KeptEntry } from '../../../state/journal.js';
import type { RequestFilter } from './expectation.js';
import { jsonContains } from './contains.js';

type Key = keyof RequestFilter;

const listOf = (value: string | string[]): string[] => (Array.isArray(value) ? value : [value]);

type Test = (entry: KeptEntry) => boolean;

/** Each key's test made for the value wanted, cheapest first: `body` last, as it parses the request. */
const TESTS: { [K in Key]-?: (wanted: NonNullable<RequestFilter[K]>) => Test } = {
  path: (wanted) => (entry) => entry.path === wanted,
  style: (wanted) => (entry) => entry.style === wanted,
  model: (wanted) => (entry) => entry.model === wanted,
  status: (wanted) => (entry) => entry.status === wanted,
  source: (wanted) => (entry) => entry.source.startsWith(wanted),
  fixture: (wanted) => (entry) => entry.fixture === wanted,
  scenario: (wanted) => (entry) => entry.scenario === wanted,
  // Exact: a fault that did not apply is journaled `NAME (not applicable)`, and does not count.
  fault: (wanted) => (entry) => entry.fault === wanted,
  text: (wanted) => (entry) => entry.said?.text.includes(wanted) ?? false,
  tools_offered: (wanted) => (entry) => listOf(wanted).every((tool) => entry.said?.tools.includes(tool) ?? false),
  tool_result: (wanted) => (entry) => entry.said?.toolResults.includes(wanted) ?? false,
  tool: (wanted) => (entry) => entry.mcp !== null && `${entry.mcp.server}/${entry.mcp.tool}` === wanted,
  body: (wanted) => {
    const holds = jsonContains(wanted);
    return (entry) => holds(requestBodyTextOf(entry));
  },
  // A tool call's journaled body is `{"name":…,"arguments":…}`.
  args: (wanted) => {
    const holds = jsonContains({ arguments: wanted });
    return (entry) => entry.mcp !== null && holds(requestBodyTextOf(entry));
  },
};

const ORDER = Object.keys(TESTS) as Key[];

export interface CompiledFilter {
  readonly filter: RequestFilter;
  test(entry: KeptEntry): boolean;
  /** The keys an entry fails, in the filter's order of cost. */
  failed(entry: KeptEntry): Key[];
}

export function compileFilter(filter: RequestFilter): CompiledFilter {
  const checks = ORDER.filter((key) => filter[key] !== undefined).map((key) => {
    const made = TESTS[key] as (wanted: unknown) => Test;
    return { key, holds: made(filter[key]) };
  });
  return {
    filter,
    test: (entry) => {
      for (const check of checks) if (!check.holds(entry)) return false;
      return true;
    },
    failed: (entry) => checks.filter((check) => !check.holds(entry)).map((check) => check.key),
  };
}

/** The filter as a message shows it: its keys in the order given. */
export function describeFilter(filter: RequestFilter): string {
  const keys = Object.entries(filter);
  return keys.length === 0 ? 'any request' : `{ ${keys.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(', ')} }`;
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

/** What an entry had where a key failed, e.g. `model was "gpt-4.1"`. */
export function seenValue(entry: KeptEntry, key: Key): string {
  switch (key) {
    case 'text':
      return `its last user message was ${JSON.stringify(clip(entry.said?.text ?? ''))}`;
    case 'tools_offered':
      return entry.said?.tools.length ? `it offered ${entry.said.tools.join(', ')}` : 'it offered no tools';
    case 'tool_result':
      return entry.said?.toolResults.length ? `it carried results of ${entry.said.toolResults.join(', ')}` : 'it carried no tool result';
    case 'body':
      return 'its body did not contain the one given';
    case 'tool':
      return entry.mcp ? `it called ${entry.mcp.server}/${entry.mcp.tool}` : 'it was no tool call';
    case 'args':
      return entry.mcp ? 'its arguments did not contain the ones given' : 'it was no tool call';
    default:
      return `${key} was ${JSON.stringify(entry[key])}`;
  }
}
