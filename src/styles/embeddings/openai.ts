// `POST /v1/embeddings` as the OpenAI form writes it: the request read into inputs and options,
// and the answer, each vector as float numbers or as base64 of little-endian float32.
import * as z from 'zod';
import { madeAtFirstUse } from '../../conversation/first-use.js';
import { float32Base64s, float32Numbers } from '../../conversation/vectors/embed.js';
import type { Steps } from '../../conversation/steps.js';
import { parseBody } from '../validate.js';
import { readInputs, type EmbeddingInput } from './inputs.js';

/** The body's schema, made at the first embedding asked: a start that serves none builds none. */
const body = madeAtFirstUse(() =>
  z.looseObject({
    model: z.string().min(1),
    input: z.unknown(),
    encoding_format: z.enum(['float', 'base64']).nullish(),
    dimensions: z.number().int().min(1).nullish(),
    user: z.string().nullish(),
  }),
);

export interface EmbeddingsRequest {
  model: string;
  inputs: EmbeddingInput[];
  format: 'float' | 'base64';
  dimensions?: number;
}

/** The request read, in steps (its inputs counted one at a time). */
export function* decodeEmbeddings(input: unknown): Steps<EmbeddingsRequest> {
  const data = parseBody(body(), input);
  return { model: data.model, inputs: yield* readInputs(data.input), format: data.encoding_format ?? 'float', dimensions: data.dimensions ?? undefined };
}

export type EmbeddingsAnswer = ReturnType<typeof encodeEmbeddings>;

/** `base64`: the vectors' texts when the caller made them already (in slices, for a large answer). */
export function encodeEmbeddings(request: EmbeddingsRequest, model: string, vectors: readonly Float32Array[], base64?: readonly string[]) {
  const tokens = request.inputs.reduce((sum, input) => sum + input.tokens, 0);
  const texts = request.format === 'base64' ? (base64 ?? float32Base64s(vectors)) : undefined;
  return {
    object: 'list',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: texts ? texts[index]! : float32Numbers(vector),
    })),
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

const EMPTY_EMBEDDING = '"embedding":""';
const EMBEDDING_OPEN = '"embedding":"';

/**
 * The answer's JSON, in pieces that joined make it. Base64 vectors (8 KB each at 1,536 components)
 * are put in as they are: their characters never need an escape, and scanning them for one was
 * most of what serialising cost. Pieces, not one text: 2,048 vectors put together are 17 MB that
 * any later reading (its length in bytes) copies whole in one turn of the event loop.
 */
export function embeddingsJson(answer: EmbeddingsAnswer): string[] {
  const { data } = answer;
  if (!data.some((entry) => typeof entry.embedding === 'string')) return [JSON.stringify(answer)];
  // Every other string is serialised, so `"embedding":""` can only be an entry's emptied vector.
  const parts = JSON.stringify({ ...answer, data: data.map((entry) => ({ ...entry, embedding: '' })) }).split(EMPTY_EMBEDDING);
  // Each piece is a whole string (a vector, a cut of the rest's JSON), never one put together here.
  const pieces = [parts[0]!];
  for (let i = 1; i < parts.length; i++) pieces.push(EMBEDDING_OPEN, data[i - 1]!.embedding as string, '"', parts[i]!);
  return pieces;
}
