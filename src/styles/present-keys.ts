// A request body is checked against its object schema narrowed to the keys it carries. A
// chat-completions body names 3 to 6 of its schema's 28 keys, and zod runs every key of an object
// schema on every parse, a result and an issue list each, absent ones too: that was half the
// parse's time and allocation on a fresh server. An absent key that is optional both ways adds
// nothing to zod's output and raises no issue, so the narrowed schema gives the same value (the
// schema's keys first, in its order, then the body's others), the same issues in the same order.
import * as z from 'zod';

/** Different sets of keys a schema is narrowed to, at most: a client's requests carry a few. */
const NARROWINGS_KEPT = 64;

interface Narrowing {
  /** The keys an absent body may leave out (optional in and out), in the schema's order. */
  optional: readonly string[];
  /** A narrowed schema by the set of optional keys present (a bit a key). */
  bySet: Map<number, z.ZodType>;
}

const narrowings = new WeakMap<z.ZodType, Narrowing | null>();

function narrowingOf(schema: z.ZodType): Narrowing | null {
  let narrowing = narrowings.get(schema);
  if (narrowing !== undefined) return narrowing;
  narrowing = null;
  // Refinements of the whole object see the whole output: those schemas are not narrowed (zod refuses to pick from them).
  if (schema instanceof z.ZodObject && (schema.def.checks?.length ?? 0) === 0) {
    const optional = Object.entries(schema.shape as Record<string, z.ZodType>)
      .filter(([, field]) => field._zod.optin === 'optional' && field._zod.optout === 'optional')
      .map(([key]) => key);
    // A set of keys is a number's bits.
    if (optional.length > 0 && optional.length <= 52) narrowing = { optional, bySet: new Map() };
  }
  narrowings.set(schema, narrowing);
  return narrowing;
}

/**
 * `schema` without the optional keys `body` does not carry, as zod tells presence (`key in`);
 * `schema` itself when it is not a plain object schema, or past the sets kept.
 */
export function narrowedTo<S extends z.ZodType>(schema: S, body: object): S {
  const narrowing = narrowingOf(schema);
  if (!narrowing) return schema;
  const { optional, bySet } = narrowing;
  let set = 0;
  for (let index = 0; index < optional.length; index++) if (optional[index]! in body) set += 2 ** index;
  let narrowed = bySet.get(set);
  if (narrowed === undefined) {
    if (bySet.size >= NARROWINGS_KEPT) return schema;
    const absent: Record<string, true> = {};
    optional.forEach((key, index) => {
      if (Math.floor(set / 2 ** index) % 2 === 0) absent[key] = true;
    });
    narrowed = (schema as unknown as z.ZodObject<Record<string, z.ZodType>>).omit(absent);
    bySet.set(set, narrowed);
  }
  return narrowed as S;
}
