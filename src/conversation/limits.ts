// How much the mock generates for one request, whoever asks: a client's schema, a fixture's
// template. Far beyond what a real reply needs, and low enough that no request holds the event
// loop or the heap for long. docs/hardening.md lists them with the other bounds.

/** Characters in one generated string (a schema's minLength, a pattern's shortest match). */
export const MAX_GENERATED_STRING = 100_000;
/** Items in one generated array (minItems), or entries in one object (minProperties). */
export const MAX_GENERATED_ITEMS = 10_000;
/** Characters of generated JSON in all, nested minimums multiplied. */
export const MAX_GENERATED_JSON = 1_000_000;
/**
 * Values of generated JSON in all (each leaf, array and object; nested minimums multiply). At
 * about a microsecond each, with what the generator adds beyond the minimums (bounded alike), a
 * reply stays within SPEC 11's time bound; no real model's output holds as many.
 */
export const MAX_GENERATED_VALUES = 20_000;
/** Schema nodes the budget walks (refs expanded, every branch) before it calls a schema too complex. */
export const MAX_SCHEMA_STEPS = 20_000;
/** A faker argument that sets how much is generated (a length, a count). */
export const MAX_FAKER_AMOUNT = 100_000;
/** Characters of one rendered template; the rest is cut. */
export const MAX_TEMPLATE_OUTPUT = 100_000;
