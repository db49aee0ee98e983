// The content key: a stable digest of what the model is asked, so the same request gets the same
// generated reply. Turns are read by side with call ids left out, so one conversation has one key
// in every style.
import { partContent } from './fingerprint.js';
import { SidesDigest } from './sides-digest.js';
import type { ChatRequest } from './types.js';

const keys = new SidesDigest((part) => {
  const content = partContent(part);
  return content === undefined ? null : JSON.stringify(content);
});

/** The digest of `JSON.stringify([model, system, sides, tools, toolChoice, responseFormat])`. */
export function contentKey(request: ChatRequest): string {
  const { model, system, turns, carriedTurns, tools, toolChoice, responseFormat } = request;
  const after = `,${[tools, toolChoice, responseFormat].map((value) => JSON.stringify(value)).join(',')}]`;
  return keys.digest(`[${JSON.stringify(model)},${JSON.stringify(system)},[`, turns, carriedTurns, after);
}
