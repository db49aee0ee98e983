// The operations a batch's lines are answered by, by `url`: the same ones the routes run, so a
// line is answered exactly as the same request sent alone would be.
import type { Envelope } from '../conversation/errors.js';
import { chatCompletions } from '../styles/chat-completions/index.js';
import { messages } from '../styles/messages/index.js';
import { responses } from '../styles/responses/index.js';
import { chat } from './chat.js';
import type { Operation } from './exchange.js';

export interface LineEndpoint {
  operation: Operation;
  envelope: Envelope;
}

/** The endpoints an OpenAI batch may name, as the vendor lists them for batches. */
export const BATCH_ENDPOINTS = ['/v1/chat/completions', '/v1/responses', '/v1/embeddings', '/v1/completions', '/v1/moderations'] as const;

const ANSWERED: Record<string, LineEndpoint> = {
  '/v1/chat/completions': { operation: chat(chatCompletions), envelope: chatCompletions.envelope },
  '/v1/responses': { operation: chat(responses), envelope: responses.envelope },
  '/v1/messages': { operation: chat(messages), envelope: messages.envelope },
};

/** The operation for a line's url; undefined where the mock serves no such endpoint (answered 404, as alone). */
export function lineEndpoint(url: string): LineEndpoint | undefined {
  return Object.hasOwn(ANSWERED, url) ? ANSWERED[url] : undefined;
}
