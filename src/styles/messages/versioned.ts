// The messages body as the clouds take it (Bedrock's InvokeModel, Vertex's rawPredict): the model
// in the path, not the body, and the API version as `anthropic_version` in the body (any value)
// instead of the `anthropic-version` header.
import { invalid } from '../../conversation/errors.js';
import type { ChatRequest } from '../../conversation/types.js';
import type { StyleInput } from '../style.js';
import { decodeMessages } from './decode.js';

/** `missing`: the cloud's own words for a body without `anthropic_version`. */
export function decodeVersioned(input: StyleInput, model: string, stream: boolean, missing: string): ChatRequest {
  const given = input.body !== null && typeof input.body === 'object' && !Array.isArray(input.body) ? (input.body as Record<string, unknown>) : undefined;
  if (given && typeof given.anthropic_version !== 'string') throw invalid(missing, 'anthropic_version');
  const body = given ? { ...given, model } : input.body;
  return { ...decodeMessages({ ...input, body }), stream };
}
