// `POST /v1/moderations`: a string, a list of strings, or a list of `text` and `image_url` parts
// (judged together), answered with one verdict per string (one for a list of parts).
import * as z from 'zod';
import { madeAtFirstUse } from '../../conversation/first-use.js';
import { invalid } from '../../conversation/errors.js';
import type { ModerationInput, ModerationVerdict } from '../../conversation/moderation.js';
import { parseBody } from '../validate.js';

/**
 * Inputs of one request. The vendor documents no bound; the mock takes as many as embeddings
 * (2,048), where 200,000 answered 233 MB.
 */
export const MAX_MODERATION_INPUTS = 2048;

/** The body's schemas, made at the first moderation: a start that serves none builds none. */
const schemas = madeAtFirstUse(() => {
  const part = z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('text'), text: z.string() }),
    z.looseObject({ type: z.literal('image_url'), image_url: z.looseObject({ url: z.string().min(1) }) }),
  ]);
  const body = z.looseObject({
    model: z.string().min(1).nullish(),
    input: z.union([z.string(), z.array(z.string()).min(1), z.array(part).min(1)]),
  });
  return { part, body };
});

export interface ModerationRequest {
  model?: string;
  inputs: ModerationInput[];
}

/** The count of a list of inputs is checked before each item is: validating 200,000 of them to refuse them took 60 ms. */
function checkCount(input: unknown): void {
  const inputs = typeof input === 'object' && input !== null ? (input as { input?: unknown }).input : undefined;
  if (Array.isArray(inputs) && inputs.length > MAX_MODERATION_INPUTS) {
    throw invalid(`Invalid value for 'input': at most ${MAX_MODERATION_INPUTS} inputs, got ${inputs.length}.`, 'input', 'invalid_value');
  }
}

export function decodeModeration(input: unknown): ModerationRequest {
  checkCount(input);
  const data = parseBody(schemas().body, input);
  const model = data.model ?? undefined;
  if (typeof data.input === 'string') return { model, inputs: [{ text: data.input, hasText: true, hasImage: false }] };
  if (data.input.every((item) => typeof item === 'string')) {
    return { model, inputs: (data.input as string[]).map((text) => ({ text, hasText: true, hasImage: false })) };
  }
  const parts = data.input as Array<z.infer<ReturnType<typeof schemas>['part']>>;
  const texts = parts.flatMap((item) => (item.type === 'text' ? [item.text] : []));
  const hasImage = texts.length < parts.length;
  if (hasImage && model !== undefined && model.startsWith('text-moderation')) {
    throw invalid(`Invalid value for 'input': the model '${model}' judges text only; images need omni-moderation-latest.`, 'input');
  }
  return { model, inputs: [{ text: texts.join('\n'), hasText: texts.length > 0, hasImage }] };
}

export function encodeModeration(id: string, model: string, verdicts: readonly ModerationVerdict[]) {
  return { id: `modr-${id}`, model, results: verdicts };
}
