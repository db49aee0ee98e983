// What `POST /__admin/verify` takes (SPEC 17): the expectations and their filters, checked
// strictly, so a typo is a 400 naming its path (`expect[1].requests.modle`) instead of a filter
// that silently matches everything.
import * as z from 'zod';
import { invalid } from '../../../conversation/errors.js';
import { formatPath } from '../../../conversation/field-path.js';
import { madeAtFirstUse } from '../../../conversation/first-use.js';

/** Which journal entries an expectation is about; every key given must hold. */
export interface RequestFilter {
  /** Exact path, e.g. `/v1/chat/completions`. */
  path?: string;
  style?: string;
  model?: string;
  status?: number;
  /** A prefix of the entry's source, e.g. `fixture:` or `scenario:rate_limit`. */
  source?: string;
  fixture?: string;
  scenario?: string;
  /** A fault the request was served with (a semantic one only where it applied). */
  fault?: string;
  /** A substring of the last user message (an image or video prompt). */
  text?: string;
  /** A JSON object the request body contains, recursively; an array's elements each in some element. */
  body?: Record<string, unknown>;
  /** Tool names the request declared, all of them. */
  tools_offered?: string | string[];
  /** A tool whose result the request carried back. */
  tool_result?: string;
  /** A fake MCP server's tool call, `SERVER/TOOL` (SPEC 22). */
  tool?: string;
  /** A JSON object the tool call's arguments contain, as `body` does. */
  args?: Record<string, unknown>;
}

export type CountSpec = number | { min?: number; max?: number };

export type Expectation =
  | { requests: RequestFilter; count?: CountSpec }
  | { sequence: RequestFilter[] }
  | { no_generated: true }
  | { max_tokens: number }
  | { max_cost_usd: number };

/**
 * Bounds that keep a call's work in proportion to the journal it reads: each expectation reads it
 * once, and an array a `body` filter gives is looked for element by element.
 */
export const MAX_EXPECTATIONS = 100;
export const MAX_SEQUENCE_STEPS = 1000;
/** Values (objects, arrays and scalars, nested ones too) in a filter's `body`. */
export const MAX_BODY_VALUES = 1000;
/** Tool names in `tools_offered`: as many as a request may declare. */
export const MAX_TOOLS_OFFERED = 128;

/** Whether `value` holds at most `max` values, counted until the count passes it. */
function valuesWithin(value: unknown, max: number): boolean {
  const pending: unknown[] = [value];
  for (let counted = 0; pending.length > 0; counted += 1) {
    if (counted >= max) return false;
    const next = pending.pop();
    if (next !== null && typeof next === 'object') for (const inner of Object.values(next)) pending.push(inner);
  }
  return true;
}

/** The schemas of a verify call, made at the first one: a start that answers none builds none. */
const schemas = madeAtFirstUse(() => {
  const name = z.string().min(1);
  const filter = z.strictObject({
    path: name.optional(),
    style: name.optional(),
    model: name.optional(),
    status: z.number().int().min(100).max(599).optional(),
    source: name.optional(),
    fixture: name.optional(),
    scenario: name.optional(),
    fault: name.optional(),
    text: z.string().optional(),
    body: z
      .record(z.string(), z.unknown())
      .refine((body) => valuesWithin(body, MAX_BODY_VALUES), { error: `a body filter holds at most ${MAX_BODY_VALUES} values` })
      .optional(),
    tools_offered: z.union([name, z.array(name).min(1).max(MAX_TOOLS_OFFERED, { error: `at most ${MAX_TOOLS_OFFERED} tool names are taken` })]).optional(),
    tool_result: name.optional(),
    tool: z.string().regex(/^[^/]+\/[^/]+$/, { error: 'a tool is named SERVER/TOOL, e.g. weather/get_forecast' }).optional(),
    args: z
      .record(z.string(), z.unknown())
      .refine((args) => valuesWithin(args, MAX_BODY_VALUES), { error: `an args filter holds at most ${MAX_BODY_VALUES} values` })
      .optional(),
  });
  const whole = z.number().int().min(0);

  const KINDS = {
    requests: z.strictObject({
      requests: filter,
      count: z
        .union([whole, z.strictObject({ min: whole.optional(), max: whole.optional() })])
        .refine((count) => typeof count === 'number' || count.min === undefined || count.max === undefined || count.min <= count.max, { error: 'min must not exceed max' })
        .optional(),
    }),
    sequence: z.strictObject({ sequence: z.array(filter).min(1).max(MAX_SEQUENCE_STEPS, { error: `a sequence has at most ${MAX_SEQUENCE_STEPS} steps` }) }),
    no_generated: z.strictObject({ no_generated: z.literal(true) }),
    max_tokens: z.strictObject({ max_tokens: whole }),
    max_cost_usd: z.strictObject({ max_cost_usd: z.number().min(0) }),
  } satisfies Record<string, z.ZodType<Expectation>>;

  const KIND_NAMES = Object.keys(KINDS) as Array<keyof typeof KINDS>;

  const body = z.strictObject({
    session: name.optional(),
    expect: z.array(z.unknown()).min(1).max(MAX_EXPECTATIONS, { error: `at most ${MAX_EXPECTATIONS} expectations are checked in one call` }),
  });
  return { kinds: KINDS, kindNames: KIND_NAMES, body };
});

function refused(path: PropertyKey[], issue: z.core.$ZodIssue): never {
  const field = formatPath(path) || 'body';
  throw invalid(`Invalid value for '${field}': ${issue.message}.`, field, 'invalid_value');
}

function parsed<T>(schema: z.ZodType<T>, value: unknown, at: PropertyKey[]): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  return refused([...at, ...issue.path], issue);
}

export function expectationOf(value: unknown, index: number): Expectation {
  const at = ['expect', index];
  const { kinds: KINDS, kindNames: KIND_NAMES } = schemas();
  const kinds = value !== null && typeof value === 'object' ? KIND_NAMES.filter((kind) => kind in value) : [];
  if (kinds.length !== 1) {
    const field = formatPath(at);
    const got = kinds.length === 0 ? 'none of them' : kinds.join(' and ');
    throw invalid(`Invalid value for '${field}': an expectation holds exactly one of ${KIND_NAMES.join(', ')}; it holds ${got}.`, field, 'invalid_value');
  }
  return parsed<Expectation>(KINDS[kinds[0]!], value, at);
}

/** The body of a verify call: its session and its expectations, each checked where it stands. */
export function verifyBody(value: unknown): { session?: string; expect: Expectation[] } {
  const { session, expect } = parsed(schemas().body, value ?? {}, []);
  return { session, expect: expect.map(expectationOf) };
}
