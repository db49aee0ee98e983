// The content key: a stable digest of what the model is asked, so the same request gets the same
// generated reply. Turns are read by side with call ids left out, so one conversation has one key
// in every style. A request of megabytes has its key made beforehand, in steps (`contentKeySteps`).
import { partContent } from './fingerprint.js';
import { SidesDigest } from './sides-digest.js';
import { finished, type Steps } from './steps.js';
import type { ChatRequest } from './types.js';

const keys = new SidesDigest(partContent);

/** The keys made beforehand, by the request they were made for. */
const made = new WeakMap<ChatRequest, string>();

/** The digest of `JSON.stringify([model, system, sides, tools, toolChoice, responseFormat])`. */
function keySteps(request: ChatRequest): Steps<string> {
  const { model, system, turns, carriedTurns, tools, toolChoice, responseFormat } = request;
  const after = `,${[tools, toolChoice, responseFormat].map((value) => JSON.stringify(value)).join(',')}]`;
  return keys.digestSteps(`[${JSON.stringify(model)},${JSON.stringify(system)},[`, turns, carriedTurns, after);
}

/** Makes the request's key a step at a time; `contentKey` then finds it made. */
export function* contentKeySteps(request: ChatRequest): Steps<void> {
  made.set(request, yield* keySteps(request));
}

export function contentKey(request: ChatRequest): string {
  return made.get(request) ?? finished(keySteps(request));
}
