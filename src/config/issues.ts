// Schema problems in words that say what would be right: an unknown key lists the allowed keys, a
// value outside its set lists the set, a wrong type names the expected one; a value that fits no
// form of a union is explained against the form it came closest to.
import type * as z from 'zod';

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;

const quoted = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

function received(input: unknown): string {
  if (input === undefined) return 'nothing';
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'object') return 'an object';
  return `${typeof input} ${JSON.stringify(input)}`;
}

/** The expected type as a reader says it: an integer check on a number is an integer. */
function expectedType(issue: RawIssue & { code: 'invalid_type' }): string {
  type Def = { format?: string; checks?: Array<{ _zod: { def: Def } }> };
  const def = (issue.inst as { _zod?: { def?: Def } } | undefined)?._zod?.def;
  const integer = [def, ...(def?.checks ?? []).map((check) => check._zod.def)].some((d) => d?.format?.includes('int'));
  if (issue.expected === 'number' && integer) return 'an integer';
  if (issue.expected === 'array') return 'a list';
  if (issue.expected === 'object') return 'an object';
  return `a ${issue.expected}`;
}

/** The error map handed to the schema: plain messages with the allowed values. */
export function explainIssue(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'unrecognized_keys': {
      const shape = (issue.inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape;
      const allowed = shape ? `; allowed keys: ${Object.keys(shape).join(', ')}` : '';
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${quoted(issue.keys)}${allowed}`;
    }
    case 'invalid_value':
      return `expected one of ${quoted(issue.values)}, got ${received(issue.input)}`;
    case 'invalid_type':
      return `expected ${expectedType(issue)}, got ${received(issue.input)}`;
    default:
      return undefined;
  }
}

const depth = (issues: readonly Issue[]) => Math.max(0, ...issues.map((issue) => issue.path.length));

/**
 * A union's issue replaced by the issues of its closest form: the fewest problems, then the
 * deepest (a form that got further into the value). When every form fails on the value itself,
 * one issue says which forms are accepted.
 */
export function closestIssues(issues: readonly Issue[]): Issue[] {
  return issues.flatMap((issue): Issue[] => {
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
    const branches = issue.errors.map((branch) => closestIssues(branch));
    const best = branches.reduce((a, b) => (b.length < a.length || (b.length === a.length && depth(b) > depth(a)) ? b : a));
    if (depth(best) > 0) return best.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
    const forms = [...new Set(branches.flat().map((inner) => inner.message.replace(/, got .*$/, '')))];
    return [{ ...issue, message: `${forms.join(', or ')}, got ${received(issue.input)}` }];
  });
}

/** The schemas checked once already: zod compiles their fast path from the second check on. */
const checkedBefore = new WeakSet<object>();

/**
 * Parses `raw` against `schema`; on failure, the explained issues (unions resolved to their closest
 * form). A schema's first check goes without zod's compiled fast path: at start each is checked
 * once, and compiling a parser for every object schema then cost more than it saved (about a
 * tenth of a cold start); reloads and fixtures sent at run time get the compiled one.
 */
export function checkAgainst<T>(schema: z.ZodType<T>, raw: unknown): { data: T; issues?: undefined } | { data?: undefined; issues: Issue[] } {
  const jitless = !checkedBefore.has(schema);
  checkedBefore.add(schema);
  const result = schema.safeParse(raw, { error: explainIssue, reportInput: true, jitless });
  return result.success ? { data: result.data } : { issues: closestIssues(result.error.issues) };
}
