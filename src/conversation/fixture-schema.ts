// The schema of a chat fixture and of the `match` block every section shares, as YAML files and
// `POST /__admin/fixtures` write them. It lives beside the fixtures it describes, so their types
// are inferred from it rather than written twice.
import { z } from 'zod';
import { STYLE_NAMES } from './types.js';

export const nonNegative = z.number().int().nonnegative();

export const matchSchema = z.strictObject({
  style: z.enum(STYLE_NAMES).optional(),
  model: z.string().optional(),
  contains: z.string().optional(),
  pattern: z.string().optional(),
  system: z.string().optional(),
  tools: z.array(z.string()).optional(),
  media: z.string().optional(),
  conversation: z.string().optional(),
  turn: z.number().int().positive().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

export const chatImageOutput = z.enum(['images', 'markdown']);

export const chatFixtureSchema = z.strictObject({
  name: z.string().optional(),
  match: matchSchema.optional(),
  reply: z.strictObject({
    text: z.string().optional(),
    reasoning: z.string().optional(),
    tool_calls: z
      .array(z.strictObject({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()).optional() }))
      .optional(),
    finish_reason: z.enum(['stop', 'length', 'tool_calls', 'content_filter']).optional(),
    usage: z.strictObject({ input_tokens: nonNegative.optional(), output_tokens: nonNegative.optional() }).optional(),
    chat_image_output: chatImageOutput.optional(),
  }),
  stream: z
    .strictObject({
      first_chunk_ms: nonNegative.optional(),
      chunk_ms: nonNegative.optional(),
      chunk_by: z.enum(['token', 'word', 'char']).optional(),
    })
    .optional(),
  priority: z.number().int().optional(),
});

