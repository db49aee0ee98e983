// `POST /api/embed`: `input` a string or strings, `dimensions` to shorten; the answer's vectors
// are plain numbers, with the prompt's count and durations beside them.
import * as z from 'zod';
import { madeAtFirstUse } from '../../conversation/first-use.js';
import { float32Numbers } from '../../conversation/vectors/embed.js';
import { readInputs, type EmbeddingInput } from '../embeddings/inputs.js';
import type { Steps } from '../../conversation/steps.js';
import { parseBody } from '../validate.js';

/** The body's schema, made at the first embedding asked: a start that serves none builds none. */
const body = madeAtFirstUse(() =>
  z.looseObject({
    model: z.string().min(1),
    input: z.unknown(),
    truncate: z.boolean().optional(),
    dimensions: z.number().int().min(1).optional(),
    keep_alive: z.union([z.string(), z.number()]).optional(),
  }),
);

export interface OllamaEmbedRequest {
  model: string;
  inputs: EmbeddingInput[];
  dimensions?: number;
}

/** The request read, in steps (its inputs counted one at a time). */
export function* decodeOllamaEmbed(input: unknown): Steps<OllamaEmbedRequest> {
  const data = parseBody(body(), input);
  return { model: data.model, inputs: yield* readInputs(data.input), dimensions: data.dimensions };
}

export function encodeOllamaEmbed(request: OllamaEmbedRequest, model: string, vectors: readonly Float32Array[]): unknown {
  const tokens = request.inputs.reduce((sum, input) => sum + input.tokens, 0);
  // As the chat's: a loaded model, about a millisecond's work per input, never zero.
  const duration = 1_000_000 * (1 + vectors.length);
  return { model, embeddings: vectors.map(float32Numbers), total_duration: duration, load_duration: 1_000_000, prompt_eval_count: tokens };
}
