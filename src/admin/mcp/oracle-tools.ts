// The test's oracle as tools (SPEC 17): a coding assistant checks what its code sent and what it
// cost against the mock, with the same expectations as `POST /__admin/verify`.
import * as z from 'zod';
import { formatUsd } from '../../conversation/usage.js';
import type { VerifyAnswer } from '../../exchange/admin/verify/verify.js';
import type { SessionUsage } from '../../exchange/admin/usage.js';
import type { UsageTotal } from '../../state/journal-tally.js';
import { ask, requireSession } from './calls.js';
import { session, tool } from './tool.js';
import { table } from './words.js';

const expectation = z
  .record(z.string(), z.unknown())
  .describe(
    'One of: { "requests": FILTER, "count": N | { "min", "max" } } (count defaults to at least 1); { "sequence": [FILTER, ...] } (in this order, others may come between); { "no_generated": true }; { "max_tokens": N }; { "max_cost_usd": X }. A FILTER holds any of path, style, model, status, source (a prefix, e.g. "fixture:"), fixture, scenario, fault (a fault served, e.g. "invalid_tool_json"), text (substring of the last user message), body (a JSON object the request body contains), tools_offered (tool names), tool_result (a tool whose result the request carried back).',
  );

const verify = tool(
  'verify',
  "Check what the code under test sent to the mock: requests matching a filter (how many), requests in order, no answer from the generator, tokens and cost under a ceiling. Answers whether each expectation holds, with what was seen.",
  z.strictObject({ expect: z.array(expectation).min(1).describe('The expectations, each checked on its own.'), session: session.optional() }),
  async (admin, input) => {
    await requireSession(admin, input.session);
    const answer = await ask<VerifyAnswer>(admin, 'POST', '/verify', { body: { expect: input.expect, session: input.session } });
    const failed = answer.results.filter((result) => !result.ok).length;
    const count = answer.results.length;
    const heading = failed > 0 ? `${failed} of ${count} expectations failed.` : count === 1 ? 'The expectation holds.' : `All ${count} expectations hold.`;
    return [heading, ...answer.results.map((result) => `- ${result.ok ? 'holds' : 'FAILED'}: ${result.message}`)].join('\n');
  },
);

const row = (name: string | null, total: UsageTotal) => [name, total.requests, total.input_tokens, total.output_tokens, formatUsd(total.cost_usd)];

const usage = tool(
  'usage',
  "What each session's answers used and cost (tokens in and out, USD at the catalog's pricing), in all and per model.",
  z.strictObject({ session: session.optional() }),
  async (admin, input) => {
    await requireSession(admin, input.session);
    const { sessions, total } = await ask<{ sessions: SessionUsage[]; total: UsageTotal }>(admin, 'GET', '/usage', { query: { session: input.session } });
    if (sessions.length === 0) return 'No session has made requests yet.';
    const rows = sessions.flatMap((s) => [row(`${s.session} (all models)`, s), ...s.by_model.map((m) => row(`${s.session} / ${m.model ?? '-'}`, m))]);
    const unpriced = total.unpriced > 0 ? ` ${total.unpriced} answers of models without pricing are not in the cost.` : '';
    return `In all: ${total.requests} requests, ${total.input_tokens} input and ${total.output_tokens} output tokens, ${formatUsd(total.cost_usd)}.${unpriced}\n\n${table(['session / model', 'requests', 'input tokens', 'output tokens', 'cost'], rows)}`;
  },
);

export const ORACLE_TOOLS = [verify, usage];
