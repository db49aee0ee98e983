// Image request bodies: `POST /v1/images/generations` (JSON), the fields of
// `POST /v1/images/edits` and `POST /v1/images/variations` (multipart, so numbers arrive as
// strings). Files are checked apart.
import * as z from 'zod';
import { invalid } from '../../conversation/errors.js';
import { formBool, formInt } from '../form.js';
import { parseBody } from '../validate.js';
import { madeAtFirstUse } from '../../conversation/first-use.js';

/** The bodies' schemas, made at the first image request: a start that serves none builds none. */
const schemas = madeAtFirstUse(() => {
  const common = {
    model: z.string().min(1).nullish(),
    n: formInt(1, 10).nullish(),
    size: z.string().nullish(),
    response_format: z.enum(['url', 'b64_json']).nullish(),
    user: z.string().nullish(),
  };

  const body = z.looseObject({
    ...common,
    prompt: z.string(),
    quality: z.string().nullish(),
    background: z.enum(['transparent', 'opaque', 'auto']).nullish(),
    output_format: z.enum(['png', 'jpeg', 'webp']).nullish(),
    output_compression: formInt(0, 100).nullish(),
    moderation: z.string().nullish(),
    style: z.string().nullish(),
    stream: formBool().nullish(),
    partial_images: formInt(0, 3).nullish(),
  });
  /** A variation has no prompt and no output options. */
  const variationBody = z.looseObject(common);
  return { body, variationBody };
});

export interface ImageRequest {
  model?: string;
  prompt: string;
  n: number;
  size?: string;
  responseFormat: 'b64_json' | 'url';
  quality?: string;
  background?: string;
  format: 'png' | 'jpeg' | 'webp';
  /** `output_compression`, 0-100; 100 keeps the most detail. PNG ignores it. */
  compression: number;
  stream: boolean;
  /** Rougher previews sent before each picture of a stream. */
  partialImages: number;
}

export function decodeImageRequest(input: unknown): ImageRequest {
  const data = parseBody(schemas().body, input);
  if (data.prompt.trim() === '') throw invalid("Invalid value for 'prompt': it must not be empty.", 'prompt');
  const format = data.output_format ?? 'png';
  if (data.background === 'transparent' && format === 'jpeg') {
    throw invalid("Invalid value for 'background': a transparent background needs output_format png or webp, not jpeg.", 'background');
  }
  return {
    model: data.model ?? undefined,
    prompt: data.prompt,
    n: data.n ?? 1,
    size: data.size ?? undefined,
    responseFormat: data.response_format ?? 'b64_json',
    quality: data.quality ?? undefined,
    background: data.background ?? undefined,
    format,
    compression: data.output_compression ?? 100,
    stream: data.stream === true,
    partialImages: data.partial_images ?? 0,
  };
}

/** A variation has no prompt and no output options: the picture is all it is asked about. */
export function decodeVariationRequest(input: unknown): ImageRequest {
  const data = parseBody(schemas().variationBody, input);
  return {
    model: data.model ?? undefined,
    prompt: '',
    n: data.n ?? 1,
    size: data.size ?? undefined,
    responseFormat: data.response_format ?? 'b64_json',
    format: 'png',
    compression: 100,
    stream: false,
    partialImages: 0,
  };
}
