// `POST /v1/embeddings` as the OpenAI form writes it: the request read into inputs and options,
// and the answer, each vector as float numbers or as base64 of little-endian float32.
import { z } from 'zod';
import { float32Base64s, float32Numbers } from '../../conversation/vectors/embed.js';
import { parseBody } from '../validate.js';
import { readInputs, type EmbeddingInput } from './inputs.js';

const body = z.looseObject({
  model: z.string().min(1),
  input: z.unknown(),
  encoding_format: z.enum(['float', 'base64']).nullish(),
  dimensions: z.number().int().min(1).nullish(),
  user: z.string().nullish(),
});

export interface EmbeddingsRequest {
  model: string;
  inputs: EmbeddingInput[];
  format: 'float' | 'base64';
  dimensions?: number;
}

export function decodeEmbeddings(input: unknown): EmbeddingsRequest {
  const data = parseBody(body, input);
  return { model: data.model, inputs: readInputs(data.input), format: data.encoding_format ?? 'float', dimensions: data.dimensions ?? undefined };
}

export function encodeEmbeddings(request: EmbeddingsRequest, model: string, vectors: readonly Float32Array[]) {
  const tokens = request.inputs.reduce((sum, input) => sum + input.tokens, 0);
  const texts = request.format === 'base64' ? float32Base64s(vectors) : undefined;
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
