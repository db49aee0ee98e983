// Image request bodies: `POST /v1/images/generations` (JSON) and the fields of
// `POST /v1/images/edits` (multipart, so numbers arrive as strings). Files are checked apart.
import { z } from 'zod';
import { invalid } from '../../conversation/errors.js';
import { formBool, formInt } from '../form.js';
import { parseBody } from '../validate.js';

const body = z.looseObject({
  model: z.string().min(1).nullish(),
  prompt: z.string(),
  n: formInt(1, 10).nullish(),
  size: z.string().nullish(),
  response_format: z.enum(['url', 'b64_json']).nullish(),
  quality: z.string().nullish(),
  background: z.enum(['transparent', 'opaque', 'auto']).nullish(),
  output_format: z.enum(['png', 'jpeg', 'webp']).nullish(),
  output_compression: formInt(0, 100).nullish(),
  moderation: z.string().nullish(),
  style: z.string().nullish(),
  user: z.string().nullish(),
  stream: formBool.nullish(),
});

export interface ImageRequest {
  model?: string;
  prompt: string;
  n: number;
  size?: string;
  responseFormat: 'b64_json' | 'url';
  quality?: string;
  background?: string;
}

export function decodeImageRequest(input: unknown): ImageRequest {
  const data = parseBody(body, input);
  if (data.prompt.trim() === '') throw invalid("Invalid value for 'prompt': it must not be empty.", 'prompt');
  if (data.stream) {
    throw invalid('Streaming image generation is not supported by the mock; leave out stream or set it to false.', 'stream');
  }
  return {
    model: data.model ?? undefined,
    prompt: data.prompt,
    n: data.n ?? 1,
    size: data.size ?? undefined,
    responseFormat: data.response_format ?? 'b64_json',
    quality: data.quality ?? undefined,
    background: data.background ?? undefined,
  };
}
