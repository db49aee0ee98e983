// The schema of a chat fixture and of the `match` block every section shares, as YAML files and
// `POST /__admin/fixtures` write them. It lives beside the fixtures it describes, so their types
// are inferred from it rather than written twice.
import * as z from 'zod';
import { madeAtFirstUse } from './first-use.js';
import { ERROR_KINDS } from './error-codes.js';
import { STYLE_NAMES } from './types.js';
import { HEADER_VALUE, HTTP_TOKEN } from './header-rules.js';

/** Made when the configuration schemas are first asked for (`config/schema.ts`), not at load. */
function build() {
  const nonNegative = z.number().int().nonnegative();

  const matchSchema = z.strictObject({
    style: z.enum(STYLE_NAMES).optional(),
    model: z.string().optional(),
    contains: z.string().optional(),
    pattern: z.string().optional(),
    system: z.string().optional(),
    tools: z.array(z.string()).optional(),
    media: z.string().optional(),
    conversation: z.string().optional(),
    turn: z.number().int().positive().optional(),
    /** The last turn returns the result of a call of this tool. */
    after_tool: z.string().min(1).optional(),
    /** These tools were called earlier in the conversation, in this order (others may come between). */
    called: z.array(z.string().min(1)).min(1).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /** What `model-gateway-mock fingerprint` prints for a request (recordings pin their turn with it). */
    fingerprint: z.string().regex(/^[0-9a-f]{16}$/, 'expected the 16 hex digits `model-gateway-mock fingerprint` prints').optional(),
    /** The shape of a recorded turn's conversation (shape.ts): replay answers by it when no fingerprint matches. */
    shape: z.string().regex(/^[0-9a-f]{16}$/, 'expected the 16 hex digits of a recorded turn\'s shape').optional(),
    /** A fake MCP tool, `SERVER/TOOL` or `TOOL` (SPEC 22): a scenario with it applies to that tool's calls, never to model requests. */
    tool: z.string().min(1).optional(),
  });

  const errorKind = z.enum(ERROR_KINDS);

  // Headers an answer carries (a fixture's error, a scenario step): checked here so a name or value
  // Node would refuse to write is reported at load with its line, not met when the client is answered.
  const headerValue = z.string({ error: 'a header value must be a string' }).regex(HEADER_VALUE, {
    error: 'a header value must be valid HTTP: visible characters, spaces and tabs, no line breaks or control characters',
  });
  // Names checked as a refinement: a record key's failure would hide inside a union's "Invalid input".
  const answerHeaders = z.record(z.string(), headerValue).superRefine((headers, ctx) => {
    for (const name of Object.keys(headers)) {
      if (HTTP_TOKEN.test(name)) continue;
      ctx.addIssue({ code: 'custom', path: [name], message: `"${name}" is not a header name: a valid HTTP token is letters, digits and !#$%&'*+-.^_\`|~, at least one` });
    }
  });

  const chatImageOutput = z.enum(['images', 'markdown']);

  const chatFixtureSchema = z.strictObject({
    name: z.string().optional(),
    match: matchSchema.optional(),
    reply: z.strictObject({
      /** The reply is said as written: no `{{...}}` in it is a template (recordings and pins). */
      literal: z.boolean().optional(),
      text: z.string().optional(),
      reasoning: z.string().optional(),
      tool_calls: z
        .array(
          z
            .strictObject({
              name: z.string().min(1),
              arguments: z.record(z.string(), z.unknown()).optional(),
              /** The raw text of a call of a freeform (custom) tool, instead of arguments. */
              input: z.string().optional(),
            })
            .refine((call) => call.arguments === undefined || call.input === undefined, {
              error: 'give a tool call either arguments or input (the raw text of a custom tool call), not both',
            }),
        )
        .optional(),
      finish_reason: z.enum(['stop', 'length', 'tool_calls', 'content_filter']).optional(),
      usage: z.strictObject({ input_tokens: nonNegative.optional(), output_tokens: nonNegative.optional() }).optional(),
      chat_image_output: chatImageOutput.optional(),
      /** The text as the stream sends it, piece by piece (a recording keeps the upstream's split). */
      chunks: z.array(z.string()).min(1).optional(),
      /** An error in the style's envelope instead of a reply: a kind (with `message` beside it), or the whole answer. */
      error: z
        .union([
          errorKind,
          z.strictObject({
            kind: errorKind,
            status: z.number().int().min(400).max(599).optional(),
            message: z.string().optional(),
            headers: answerHeaders.optional(),
          }),
        ])
        .optional(),
      message: z.string().optional(),
    }),
    stream: z
      .strictObject({
        first_chunk_ms: nonNegative.optional(),
        chunk_ms: nonNegative.optional(),
        chunk_by: z.enum(['token', 'word', 'char']).optional(),
      })
      .optional(),
    priority: z.number().int().optional(),
    /** The request a recorded turn answered (its path and body, no secrets), so `drift` can ask it again. */
    request: z.strictObject({ path: z.string().startsWith('/'), body: z.unknown() }).optional(),
  });

  /** A request `drift` asks the upstream and the mock, written by hand (`drift:` in a fixtures file). */
  const driftEntrySchema = z.strictObject({
    name: z.string().optional(),
    path: z.string().startsWith('/'),
    style: z.enum(STYLE_NAMES).optional(),
    request: z.unknown(),
  });
  return { nonNegative, matchSchema, errorKind, answerHeaders, chatImageOutput, chatFixtureSchema, driftEntrySchema };
}

export type FixtureSchemas = ReturnType<typeof build>;

/** The schemas, built once, at their first use. */
export const fixtureSchemas: () => FixtureSchemas = madeAtFirstUse(build);
