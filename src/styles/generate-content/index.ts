// The generate-content style (`POST /v1beta/models/{model}:{action}`). The path carries the model
// and the action in one segment; the action picks a whole reply, a stream or a token count.
import { MockError } from '../../conversation/errors.js';
import type { Framing } from '../../conversation/plan.js';
import { envelopeEvents } from '../envelope.js';
import type { ChatStyle } from '../style.js';
import { decodeGenerateContent } from './decode.js';
import { encodeGenerateContent, generateContentAnswer } from './encode.js';
import { generateContentEnvelope } from './envelope.js';
import { generateContentEvents } from './events.js';
import { readGenerateContent } from './read.js';

export const ACTIONS = ['generateContent', 'streamGenerateContent', 'countTokens', 'embedContent', 'batchEmbedContents'] as const;
export type Action = (typeof ACTIONS)[number];

/** The actions of the embedding models, answered by the embeddings doors. */
export const EMBED_ACTIONS = ['embedContent', 'batchEmbedContents'] as const satisfies readonly Action[];

/** `gemini-2.5-flash:generateContent` -> model and action; an unknown action is a 404, as the vendor answers. */
export function parseTarget(target: string): { model: string; action: Action } {
  const at = target.lastIndexOf(':');
  const action = at < 0 ? '' : target.slice(at + 1);
  if (!(ACTIONS as readonly string[]).includes(action)) {
    throw new MockError(
      'not_found',
      `Method not found: '${action || target}'. The actions on a model are ${ACTIONS.join(', ')} (POST /v1beta/models/{model}:{action}).`,
    );
  }
  return { model: target.slice(0, at), action: action as Action };
}

/** How a stream is framed: the SDKs ask for `alt=sse`; without it the vendor streams one JSON array. */
export function streamFraming(request: { query: Record<string, unknown> }): Framing {
  return request.query.alt === 'sse' ? 'sse' : 'json-array';
}

export const generateContent: ChatStyle = {
  name: 'generate-content',
  envelope: generateContentEnvelope,
  decode: (input) => decodeGenerateContent(input),
  encode: encodeGenerateContent,
  answer: generateContentAnswer,
  events: generateContentEvents,
  // The envelope itself, as the vendor sends it mid-stream: js-genai raises an ApiError for a data
  // line holding `error.code` 400-599, and Vercel's provider reports it as a stream error.
  streamError: envelopeEvents(generateContentEnvelope),
  read: readGenerateContent,
};
