// A JSON object the mock passes on without reading inside it (a tool's schema, a call's input).
// `z.record(z.string(), z.unknown())` checks the same thing but copies every key of every object
// into a new one: for an agent's 25 tools that copy was a third of decoding its request.
import * as z from 'zod';
import { isPlainObject } from '../conversation/schema-walk.js';

/** The object itself, refused with the issue `z.record` raises ("expected record, received array"). */
export function jsonObject(): z.ZodType<Record<string, unknown>> {
  return z.custom<Record<string, unknown>>().check((ctx) => {
    if (!isPlainObject(ctx.value)) ctx.issues.push({ code: 'invalid_type', expected: 'record', input: ctx.value });
  });
}
